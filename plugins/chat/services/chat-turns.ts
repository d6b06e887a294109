import { clip, hostErrors, MusterError, type EventBus, type MusterEvents, type GatewayClient, type Logger } from "@muster/plugin";
import type { ChatConfig } from "../config.ts";
import type { ChatEvents } from "../events.ts";
import { chatErrors } from "../errors.ts";
import { ActiveTurn, type ChatTurnRecord, type PendingApproval } from "./active-turn.ts";
import { chatSessionKey, type PreparedChat } from "./chat-service.ts";
import type { ChatMessageRecord } from "./chat-store.ts";
import type { TeamTurns } from "./team-turns.ts";

export type { ChatTurnRecord, PendingApproval };

/** How a turn ended, as `chat.turn.finished` and the abort route report it. */
export interface ChatTurnFinished {
  turn: ChatTurnRecord;
  /** `cancelled`: aborted by `POST /api/chat/turns/:id/abort` or the shutdown. */
  outcome: "completed" | "failed" | "cancelled";
  /** The agent replies this turn stored (a failed party keeps those before the failure). */
  replies: ChatMessageRecord[];
  error: { code: string; message: string } | null;
}

/** The gateway's approval kinds as its events name them (`exec.approval.requested`, ...). */
const APPROVAL_KINDS = ["exec", "plugin", "openclaw"] as const;
/** How long the shutdown waits for aborted turns to unwind (their last writes) before going on. */
const STOP_GRACE_MS = 5_000;

interface Entry {
  turn: ActiveTurn;
  settled: Promise<ChatTurnFinished>;
}

interface ChatTurnsDeps {
  gateway: GatewayClient;
  events: EventBus;
  config: ChatConfig;
  logger: Logger;
  /** Team mode (PostgreSQL, several instances): the turns shared with the other instances; absent on SQLite. */
  team?: TeamTurns;
}

/**
 * The chat turns in flight, whether a request still waits for them or not. A turn ends by
 * itself (reply, failure, `turnMaxMs`), by `abort`, or at shutdown (`stop`); it follows the
 * gateway's approval events to show which approval its agent waits on.
 */
export class ChatTurns {
  private readonly active = new Map<string, Entry>();
  private unwatch: (() => void) | undefined;
  private stopped = false;
  private readonly deps: ChatTurnsDeps;
  constructor(deps: ChatTurnsDeps) {
    this.deps = deps;
  }

  /**
   * Starts a prepared chat as a turn of its own. `release` (its rate-limit slot) is called
   * once the turn has ended, however it ends, and waited for before a waiting request gets the
   * end of its answer: in team mode the slot is a row, and the client's next chat, on any
   * instance, must find it free.
   */
  start(prepared: PreparedChat, options: { attached: boolean; release: () => void | Promise<void> }): ActiveTurn {
    if (this.stopped) {
      void options.release();
      throw hostErrors.SERVICE_UNAVAILABLE({ reason: "Muster is shutting down" });
    }
    this.watchApprovals();
    const { turnMaxMs, turnTimeoutMs } = this.deps.config;
    const turn = new ActiveTurn(prepared, {
      maxMs: Math.max(turnMaxMs, turnTimeoutMs),
      attached: options.attached,
      changed: (changed) => {
        this.deps.team?.changed(changed);
        this.publish("chat.turn.updated", { turn: changed.snapshot() });
      },
      ...(this.deps.team ? { progressed: (moved: ActiveTurn) => this.deps.team!.changed(moved) } : {}),
      // The shared limiter logs a release that fails; the turn's outcome stays its run's.
      ended: async () => {
        try {
          await options.release();
        } catch (error) {
          this.deps.logger.warn({ err: error }, "a chat turn's rate-limit slot could not be released");
        }
      },
    });
    const settled = turn.done
      .then(
        () => this.finished(turn, "completed", null),
        (error: unknown) => this.finished(turn, turn.controller.signal.aborted ? "cancelled" : "failed", error),
      )
      .finally(() => this.active.delete(turn.record.id));
    this.active.set(turn.record.id, { turn, settled });
    this.deps.team?.started(turn);
    this.publish("chat.turn.started", { turn: turn.snapshot() });
    void settled.then((finished) => {
      this.deps.team?.ended(finished);
      this.publish("chat.turn.finished", finished);
    });
    return turn;
  }

  /**
   * Running turns, oldest first; only those of one chat session when `sessionId` is given. In
   * team mode those of every live instance (this one's from memory, the others' rows).
   */
  list(sessionId?: string): ChatTurnRecord[] | Promise<ChatTurnRecord[]> {
    const here = [...this.active.values()].map((e) => e.turn.snapshot()).filter((t) => sessionId === undefined || t.sessionId === sessionId);
    if (!this.deps.team) return here;
    return this.deps.team.others(sessionId).then((others) => [...here, ...others].sort((a, b) => a.startedAt.localeCompare(b.startedAt)));
  }

  /**
   * Aborts a running turn (its agent's run on the gateway too) and answers how it ended. In
   * team mode a turn another instance runs is aborted there (TeamTurns.abort).
   */
  abort(id: string): Promise<ChatTurnFinished> {
    const entry = this.active.get(id);
    if (!entry) {
      if (this.deps.team) return this.deps.team.abort(id);
      throw chatErrors.CHAT_TURN_NOT_FOUND({ id });
    }
    entry.turn.controller.abort(chatErrors.CHAT_TURN_CANCELLED({ id }));
    return entry.settled;
  }

  /** Team mode: starts carrying out the other instances' abort requests for this instance's turns. */
  async share(): Promise<void> {
    await this.deps.team?.start((id) => this.active.get(id)?.turn.controller.abort(chatErrors.CHAT_TURN_CANCELLED({ id })));
  }

  /** Shutdown: aborts every turn and waits (bounded) until each has written what it was writing. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unwatch?.();
    this.unwatch = undefined;
    const entries = [...this.active.values()];
    for (const { turn } of entries) turn.controller.abort(hostErrors.SERVICE_UNAVAILABLE({ reason: "Muster is shutting down" }));
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, STOP_GRACE_MS)));
    await Promise.race([Promise.allSettled(entries.map((e) => e.settled)), grace]);
    clearTimeout(timer);
    await this.deps.team?.stop();
  }

  private finished(turn: ActiveTurn, outcome: ChatTurnFinished["outcome"], error: unknown): ChatTurnFinished {
    const record = turn.snapshot();
    record.waitingForApproval = null;
    if (error !== null && !(error instanceof MusterError)) this.deps.logger.error({ err: error, turnId: record.id, sessionId: record.sessionId }, "chat turn failed");
    const described =
      error === null ? null : error instanceof MusterError ? { code: error.code, message: error.message } : { code: "INTERNAL_ERROR", message: "Internal error; the server log has the details" };
    return { turn: record, outcome, replies: [...turn.replies], error: described };
  }

  /** Subscribes once to the gateway's approval events; `stop` undoes it. */
  private watchApprovals(): void {
    if (this.unwatch) return;
    const off = APPROVAL_KINDS.flatMap((kind) => [
      this.deps.gateway.on(`${kind}.approval.requested`, (event) => this.approvalRequested(kind, event)),
      this.deps.gateway.on(`${kind}.approval.resolved`, (event) => this.approvalResolved(event)),
    ]);
    this.unwatch = () => {
      for (const unsubscribe of off) unsubscribe();
    };
  }

  /** A request raised in the gateway session of an agent of a running turn: that turn waits on it. */
  private approvalRequested(kind: string, event: unknown): void {
    const { id, request, expiresAtMs } = (event ?? {}) as { id?: unknown; request?: { sessionKey?: unknown; command?: unknown }; expiresAtMs?: unknown };
    if (typeof id !== "string" || typeof request?.sessionKey !== "string") return;
    const sessionKey = request.sessionKey;
    const entry = [...this.active.values()].find(({ turn }) => turn.record.agentIds.some((agentId) => chatSessionKey(agentId, turn.record.sessionId) === sessionKey));
    entry?.turn.setApproval({
      id,
      kind,
      command: typeof request.command === "string" ? clip(request.command, 500) : null,
      expiresAt: typeof expiresAtMs === "number" && Number.isFinite(expiresAtMs) ? new Date(expiresAtMs).toISOString() : null,
    });
  }

  private approvalResolved(event: unknown): void {
    const id = (event as { id?: unknown } | null)?.id;
    if (typeof id !== "string") return;
    for (const { turn } of this.active.values()) if (turn.record.waitingForApproval?.id === id) turn.setApproval(null);
  }

  /** Events are a record of what happened; failing to publish one never fails a turn. */
  private publish<N extends keyof ChatEvents>(name: N, payload: MusterEvents[N]): void {
    try {
      this.deps.events.publish(name, payload, { public: true });
    } catch (error) {
      this.deps.logger.warn({ err: error, name }, "chat turn event not published");
    }
  }
}

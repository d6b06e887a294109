import { randomUUID } from "node:crypto";
import { hostErrors, type MusterError } from "@muster/plugin";
import type { ChatFrame, ChatResult, PreparedChat } from "./chat-service.ts";
import type { ChatMessageRecord } from "./chat-store.ts";

/** A gateway approval request (exec, plugin or system-agent) an agent of the turn waits on. */
export interface PendingApproval {
  /** The gateway's request id (the approvals inbox keeps it as the approval's `payload.gatewayId`). */
  id: string;
  kind: string;
  /** The command to run, for an exec approval; null otherwise. */
  command: string | null;
  /** When the gateway gives up waiting and denies it; null when it did not say. */
  expiresAt: string | null;
}

/** A running chat turn as `GET /api/chat/turns` and the `chat.turn.*` events show it. */
export interface ChatTurnRecord {
  id: string;
  sessionId: string;
  mode: "single" | "party";
  agentIds: string[];
  startedAt: string;
  /** When it is aborted if it has not finished (`turnMaxMs` after the start). */
  deadline: string;
  /** A request is still waiting for the answer; false once the turn went on in the background. */
  attached: boolean;
  /** When it went on in the background (the client left, the wait passed `turnTimeoutMs`, or it was started in the background). */
  detachedAt: string | null;
  /** The agent whose reply is awaited, and its party round (1 in single mode). */
  current: { agentId: string; round: number } | null;
  waitingForApproval: PendingApproval | null;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * One chat turn, running on its own: it ends with its reply, its failure, its deadline or an
 * explicit abort (`controller`), never because the request that started it went away. The
 * request follows it with {@link wait}; the frames reach it only while it waits.
 */
export class ActiveTurn {
  readonly record: ChatTurnRecord;
  /** Aborted by a cancel or the shutdown; aborting it aborts the agent's run on the gateway. */
  readonly controller = new AbortController();
  /** The agent replies stored so far, as the session's messages show them. */
  readonly replies: ChatMessageRecord[] = [];
  readonly done: Promise<ChatResult>;
  private listener: ((frame: ChatFrame) => void) | undefined;
  private readonly changed: (turn: ActiveTurn) => void;
  private readonly progressed: ((turn: ActiveTurn) => void) | undefined;

  /**
   * `changed`: attached, detached or approval changed (published); `progressed` (optional): the
   * agent being awaited changed; `ended` (optional): awaited once the run has ended, however,
   * before `done` settles, so before a waiting request can answer.
   */
  constructor(
    prepared: PreparedChat,
    options: { maxMs: number; attached: boolean; changed: (turn: ActiveTurn) => void; progressed?: (turn: ActiveTurn) => void; ended?: () => Promise<void> },
  ) {
    const now = Date.now();
    this.changed = options.changed;
    this.progressed = options.progressed;
    this.record = {
      id: randomUUID(),
      sessionId: prepared.sessionId,
      mode: prepared.mode,
      agentIds: prepared.agentIds,
      startedAt: iso(now),
      deadline: iso(now + options.maxMs),
      attached: options.attached,
      detachedAt: options.attached ? null : iso(now),
      current: null,
      waitingForApproval: null,
    };
    // Starts on the next microtask: a request that calls `wait` in the tick that created the
    // turn sees every frame.
    this.done = Promise.resolve()
      .then(() =>
        prepared.run({ signal: this.controller.signal, deadline: now + options.maxMs, frames: (frame) => this.onFrame(frame), onReply: (message) => this.replies.push(message) }),
      )
      .finally(options.ended);
  }

  snapshot(): ChatTurnRecord {
    return structuredClone(this.record);
  }

  /**
   * Waits for the answer as a request: frames go to `frames` meanwhile. Past `waitMs` without
   * the current agent's reply it rejects with 504 `GATEWAY_TIMEOUT` saying where the reply
   * will arrive; a client that leaves (`signal`) gets the signal's reason. Either way the turn
   * goes on in the background.
   */
  wait(options: { signal: AbortSignal; waitMs: number; frames?: (frame: ChatFrame) => void }): Promise<ChatResult> {
    return new Promise<ChatResult>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => leave(this.timeoutError(options.waitMs)), options.waitMs);
      };
      const listener = (frame: ChatFrame) => {
        // Each agent of a party gets the whole wait, as each turn did before.
        if (frame.type === "agent_start") arm();
        options.frames?.(frame);
      };
      const end = () => {
        clearTimeout(timer);
        options.signal.removeEventListener("abort", onAbort);
        if (this.listener === listener) this.listener = undefined;
      };
      const leave = (reason: unknown) => {
        if (this.listener !== listener) return;
        end();
        this.detach();
        reject(reason);
      };
      const onAbort = () => leave(options.signal.reason);
      this.listener = listener;
      options.signal.addEventListener("abort", onAbort, { once: true });
      arm();
      if (options.signal.aborted) onAbort();
      this.done.then(
        (result) => {
          if (this.listener !== listener) return;
          end();
          resolve(result);
        },
        (error: unknown) => {
          if (this.listener !== listener) return;
          end();
          reject(error);
        },
      );
    });
  }

  /** Records the approval the turn waits on (null: decided or gone). */
  setApproval(approval: PendingApproval | null): void {
    this.record.waitingForApproval = approval;
    this.changed(this);
  }

  private detach(): void {
    if (!this.record.attached) return;
    this.record.attached = false;
    this.record.detachedAt = iso(Date.now());
    this.changed(this);
  }

  private onFrame(frame: ChatFrame): void {
    if (frame.type === "agent_start") {
      this.record.current = { agentId: frame.agentId, round: frame.round };
      this.progressed?.(this);
    }
    this.listener?.(frame);
  }

  private timeoutError(waitMs: number): MusterError {
    const { id, sessionId, current } = this.record;
    const who = current ? `agent ${current.agentId}` : "the agent";
    const waiting = this.record.waitingForApproval ? ` (it waits for the approval of gateway request ${this.record.waitingForApproval.id})` : "";
    return hostErrors.GATEWAY_TIMEOUT(
      {
        reason:
          `${who} did not finish its reply within ${waitMs} ms${waiting}; the turn goes on in the background until ${this.record.deadline}: ` +
          `its reply will be stored in chat session ${sessionId} (GET /api/chat/sessions/${sessionId}) and published as chat.turn.finished; ` +
          `cancel it with POST /api/chat/turns/${id}/abort`,
      },
      { details: { sessionId, turnId: id, continues: true, deadline: this.record.deadline, messages: `/api/chat/sessions/${sessionId}`, abort: `/api/chat/turns/${id}/abort`, event: "chat.turn.finished" } },
    );
  }
}

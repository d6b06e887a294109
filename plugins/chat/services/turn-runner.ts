import { randomUUID } from "node:crypto";
import { hostErrors, type GatewayChatEvent, type GatewayClient, type GatewayStatus, type Logger } from "@muster/plugin";
import { chatErrors } from "../errors.ts";
import type { AgentReply, AgentTurn, AgentTurnRunner } from "../tokens.ts";
import { readReplyMessage, readUsage } from "./reply-content.ts";

/** A turn waiting for its terminal `chat` event. */
interface PendingTurn {
  turn: AgentTurn;
  runId: string;
  text: string;
  settle(outcome: { reply: AgentReply } | { error: unknown; abortRun: boolean }): void;
}

/**
 * Runs agent turns with `chat.send` and follows them through the gateway's `chat` events.
 *
 * The run id is the idempotency key Muster sends (the gateway uses it as `runId`), so the
 * turn is registered before the request goes out and no event can arrive unclaimed. A turn
 * settles exactly once: the first terminal event (`final`, `error`, `aborted`) wins and the
 * turn is forgotten, so the gateway's duplicate terminal events (two `error`s for one run,
 * reference §2.9) and a repeated `seq` change nothing. A timeout or the caller's abort
 * sends `chat.abort` so the agent stops working for nobody; a lost connection fails every
 * turn in flight at once, since their events will never come.
 */
export class TurnRunner implements AgentTurnRunner {
  private readonly pending = new Map<string, PendingTurn>();
  private detach: (() => void) | undefined;
  private readonly deps: { gateway: GatewayClient; logger: Logger };
  constructor(deps: { gateway: GatewayClient; logger: Logger }) {
    this.deps = deps;
  }

  /** Subscribes to the gateway (once); `stop` undoes it. */
  private attach(): void {
    if (this.detach) return;
    const offChat = this.deps.gateway.on("chat", (event) => this.onChatEvent(event));
    const offState = this.deps.gateway.onState((status) => {
      if (this.pending.size === 0) return;
      const lost = this.turnsOnLostLinks(status);
      if (lost.length > 0) void this.failAll(lost);
    });
    this.detach = () => {
      offChat();
      offState();
    };
  }

  /** Stops listening and fails the turns still running (shutdown). */
  stop(): void {
    this.detach?.();
    this.detach = undefined;
    for (const turn of [...this.pending.values()]) {
      turn.settle({ error: hostErrors.SERVICE_UNAVAILABLE({ reason: "Muster is shutting down" }), abortRun: true });
    }
  }

  async run(turn: AgentTurn): Promise<AgentReply> {
    turn.signal?.throwIfAborted();
    // Not connected: answer 503 before anything is registered or sent.
    await this.deps.gateway.ready(0);
    this.attach();
    const runId = randomUUID();
    return new Promise<AgentReply>((resolve, reject) => {
      const onAbort = () => pending.settle({ error: turn.signal!.reason, abortRun: true });
      const timer = setTimeout(() => {
        pending.settle({ error: hostErrors.GATEWAY_TIMEOUT({ reason: `agent ${turn.agentId} did not finish its reply within ${turn.timeoutMs} ms` }), abortRun: true });
      }, turn.timeoutMs);
      const pending: PendingTurn = {
        turn,
        runId,
        text: "",
        settle: (outcome) => {
          if (this.pending.get(runId) !== pending) return;
          this.pending.delete(runId);
          clearTimeout(timer);
          turn.signal?.removeEventListener("abort", onAbort);
          if ("reply" in outcome) return resolve(outcome.reply);
          if (outcome.abortRun) this.abortRun(turn, runId);
          reject(outcome.error);
        },
      };
      this.pending.set(runId, pending);
      turn.signal?.addEventListener("abort", onAbort, { once: true });
      this.deps.gateway
        .call("chat.send", { sessionKey: turn.sessionKey, agentId: turn.agentId, message: turn.message, idempotencyKey: runId, timeoutMs: turn.timeoutMs }, { timeoutMs: Math.min(turn.timeoutMs, 30_000) })
        // A refused send started no run; a send that timed out may have, so abort it.
        .catch((error: unknown) => pending.settle({ error, abortRun: (error as { code?: string }).code === "GATEWAY_TIMEOUT" }));
    });
  }

  private onChatEvent(event: GatewayChatEvent): void {
    if (typeof event !== "object" || event === null) return;
    const pending = this.pending.get(event.runId);
    // The run id alone could be claimed by a stray event of another session; both must match.
    if (!pending || (event.sessionKey !== undefined && event.sessionKey !== pending.turn.sessionKey)) return;
    const { turn } = pending;
    switch (event.state) {
      case "delta": {
        const cumulative = readReplyMessage(event.message).text;
        const increment = typeof event.deltaText === "string" ? event.deltaText : "";
        if (event.replace === true) {
          pending.text = cumulative || increment;
          turn.onDelta?.(pending.text, true);
        } else {
          pending.text = cumulative || pending.text + increment;
          if (increment) turn.onDelta?.(increment, false);
        }
        return;
      }
      case "final": {
        const content = readReplyMessage(event.message);
        pending.settle({
          reply: {
            agentId: turn.agentId,
            runId: pending.runId,
            text: content.text || pending.text,
            thinking: content.thinking,
            toolCalls: content.toolCalls,
            usage: readUsage(event.usage),
          },
        });
        return;
      }
      case "error": {
        const reason = typeof event.errorMessage === "string" && event.errorMessage ? event.errorMessage : "the gateway reported an error";
        const error = chatErrors.CHAT_RUN_FAILED({ agentId: turn.agentId, reason }, { details: { runId: pending.runId, errorKind: event.errorKind ?? null, errorDetail: event.errorDetail ?? null } });
        pending.settle({ error, abortRun: false });
        return;
      }
      case "aborted":
        pending.settle({ error: chatErrors.CHAT_RUN_ABORTED({ agentId: turn.agentId }, { details: { runId: pending.runId } }), abortRun: false });
        return;
      default:
        return;
    }
  }

  /** The connection is gone: every turn in flight fails with the client's own answer (503). */
  /**
   * The running turns whose gateway is no longer connected: all of them when the gateway is
   * down; with several gateways (DESIGN §16), those of agents on a link that went away.
   */
  private turnsOnLostLinks(status: GatewayStatus): PendingTurn[] {
    const { gateway } = this.deps;
    const links = gateway.links?.();
    if (!links || links.length < 2 || !gateway.gatewayOf) return status.state === "connected" ? [] : [...this.pending.values()];
    const up = new Set(links.filter((l) => l.state === "connected").map((l) => l.name));
    return [...this.pending.values()].filter((p) => {
      const name = gateway.gatewayOf!(p.turn.agentId);
      return name === null ? status.state !== "connected" : !up.has(name);
    });
  }

  private async failAll(turns: PendingTurn[]): Promise<void> {
    const error = await this.deps.gateway.ready(0).then(
      () => hostErrors.SERVICE_UNAVAILABLE({ reason: "the gateway connection was lost during the run" }),
      (cause: unknown) => cause,
    );
    for (const turn of turns) turn.settle({ error, abortRun: false });
  }

  private abortRun(turn: AgentTurn, runId: string): void {
    if (this.deps.gateway.status().state !== "connected") return;
    this.deps.gateway.call("chat.abort", { sessionKey: turn.sessionKey, agentId: turn.agentId, runId }, { timeoutMs: 10_000 }).catch((error: unknown) => {
      this.deps.logger.warn({ err: error, runId, agentId: turn.agentId }, "chat.abort failed");
    });
  }
}

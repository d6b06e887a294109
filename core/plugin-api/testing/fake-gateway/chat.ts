// Sessions and chat: `sessions.list`/`sessions.changed`, `chat.send`/`chat.abort`/`chat.history`,
// and the `agent`/`agent.wait` methods. A run streams the reply hook's text as `chat` and
// `agent` events (status, deltas, then final, aborted or error), as the real gateway does.
import { randomUUID } from "node:crypto";
import type { GatewaySessionRow } from "../../gateway.ts";
import type { FakeAgents } from "./agents.ts";
import { FakeGatewayError, invalid, type Broadcast, type FakeConnection, type FakeReplyHook } from "./types.ts";

interface Run {
  runId: string;
  sessionKey: string;
  agentId: string;
  controller: AbortController;
  text: string;
  done: Promise<{ status: string; text: string }>;
}

const defaultReply: FakeReplyHook = (agentId, message) => {
  const text = `Reply from ${agentId}: ${message}`;
  const half = Math.ceil(text.length / 2);
  return { deltas: [text.slice(0, half), text.slice(half)] };
};

export class FakeChat {
  /** Configured `sessions.list` rows (chat sends add their own rows too). */
  sessions: GatewaySessionRow[];
  replyHook: FakeReplyHook;
  private autoSessions = new Map<string, GatewaySessionRow>();
  private history = new Map<string, Array<Record<string, unknown>>>();
  private runs = new Map<string, Run>();

  private readonly agents: FakeAgents;
  private readonly broadcast: Broadcast;

  constructor(agents: FakeAgents, broadcast: Broadcast, options: { sessions?: GatewaySessionRow[]; reply?: FakeReplyHook }) {
    this.agents = agents;
    this.broadcast = broadcast;
    this.sessions = options.sessions ?? [];
    this.replyHook = options.reply ?? defaultReply;
  }

  /** Aborts every run (the fake is stopping). */
  abortAll(): void {
    for (const run of this.runs.values()) run.controller.abort();
  }

  chatHistory(params: any) {
    if (typeof params.sessionKey !== "string") throw invalid("invalid chat.history params: must have required property 'sessionKey'");
    const messages = this.history.get(params.sessionKey) ?? [];
    const limit = typeof params.limit === "number" ? params.limit : 200;
    return { sessionKey: params.sessionKey, messages: messages.slice(-limit), hasMore: messages.length > limit, totalMessages: messages.length };
  }

  sessionRows(): GatewaySessionRow[] {
    const configured = new Set(this.sessions.map((s) => s.key));
    return [...this.sessions, ...[...this.autoSessions.values()].filter((s) => !configured.has(s.key))];
  }

  sessionsList(params: { limit?: number; offset?: number; agentId?: string }) {
    let rows = this.sessionRows();
    if (params.agentId) rows = rows.filter((r) => r.agentId === params.agentId);
    rows = [...rows].sort((a, b) => (b.updatedAt ?? 0) - (a.updatedAt ?? 0));
    const offset = params.offset ?? 0;
    const limit = params.limit ?? 100;
    const page = rows.slice(offset, offset + limit);
    const hasMore = offset + limit < rows.length;
    return { ts: Date.now(), count: page.length, totalCount: rows.length, limitApplied: limit, hasMore, nextOffset: hasMore ? offset + limit : null, sessions: page };
  }

  chatSend(params: any) {
    if (typeof params.sessionKey !== "string" || params.sessionKey.length < 1 || params.sessionKey.length > 512) {
      throw invalid("invalid chat.send params: must have required property 'sessionKey'");
    }
    if (typeof params.message !== "string") throw invalid("invalid chat.send params: must have required property 'message'");
    if (typeof params.idempotencyKey !== "string" || !params.idempotencyKey) throw invalid("invalid chat.send params: must have required property 'idempotencyKey'");
    const agentId = this.agents.resolve(params.agentId, params.sessionKey);
    const existing = this.runs.get(params.idempotencyKey);
    if (!existing) this.startRun(params.idempotencyKey, agentId, params.sessionKey, params.message);
    return { runId: params.idempotencyKey, status: "started" };
  }

  chatAbort(params: any) {
    const aborted: string[] = [];
    for (const run of this.runs.values()) {
      if (run.sessionKey !== params.sessionKey || (params.runId && run.runId !== params.runId) || run.controller.signal.aborted) continue;
      run.controller.abort();
      aborted.push(run.runId);
    }
    return { ok: true, aborted: aborted.length > 0, runIds: aborted };
  }

  agentMethod(conn: FakeConnection, id: string, params: any): void {
    const fail = (error: FakeGatewayError) => conn.send({ type: "res", id, ok: false, error: error.shape });
    if (typeof params.message !== "string") return fail(invalid("invalid agent params: must have required property 'message'"));
    if (typeof params.idempotencyKey !== "string" || !params.idempotencyKey) return fail(invalid("invalid agent params: must have required property 'idempotencyKey'"));
    let agentId: string;
    try {
      agentId = this.agents.resolve(params.agentId, params.sessionKey);
    } catch (error) {
      return fail(error as FakeGatewayError);
    }
    const sessionKey = typeof params.sessionKey === "string" ? params.sessionKey : `agent:${agentId}:main`;
    const runId = params.idempotencyKey;
    const run = this.runs.get(runId) ?? this.startRun(runId, agentId, sessionKey, params.message);
    conn.send({ type: "res", id, ok: true, payload: { runId, sessionKey, agentId, status: "accepted", acceptedAt: Date.now() } });
    void run.done.then(({ status, text }) => {
      if (status === "error") {
        return conn.send({ type: "res", id, ok: false, error: { code: "UNAVAILABLE", message: `agent run failed: ${text}` } });
      }
      const usage = { input: 10, output: Math.max(1, Math.ceil(text.length / 4)), total: 10 + Math.max(1, Math.ceil(text.length / 4)) };
      conn.send({
        type: "res",
        id,
        ok: true,
        payload: {
          runId,
          status: status === "aborted" ? "aborted" : "ok",
          summary: status === "aborted" ? "aborted" : "completed",
          result: { payloads: [{ text, mediaUrl: null }], meta: { durationMs: 1, agentMeta: { sessionId: randomUUID(), provider: "fake", model: "fake-model", usage } } },
        },
      });
    });
  }

  async agentWait(params: any) {
    const run = this.runs.get(params.runId);
    const timeoutMs = typeof params.timeoutMs === "number" ? params.timeoutMs : 30_000;
    if (!run) return { runId: params.runId, status: "timeout" };
    const outcome = await Promise.race([run.done, new Promise<null>((r) => setTimeout(() => r(null), timeoutMs).unref())]);
    if (!outcome) return { runId: params.runId, status: "timeout" };
    return { runId: run.runId, status: outcome.status === "done" ? "ok" : outcome.status, stopReason: "stop", terminalReply: { disposition: "visible", text: outcome.text } };
  }

  /** Runs one chat/agent turn: status, deltas, final (or aborted/error), with agent events alongside. */
  private startRun(runId: string, agentId: string, sessionKey: string, message: string): Run {
    const controller = new AbortController();
    const run: Run = { runId, sessionKey, agentId, controller, text: "", done: Promise.resolve({ status: "done", text: "" }) };
    this.runs.set(runId, run);
    const base = { runId, sessionKey, agentId };
    let chatSeq = 0;
    let agentSeq = 0;
    const chat = (payload: Record<string, unknown>) => this.broadcast("chat", { ...base, seq: ++chatSeq, ...payload });
    const agent = (stream: string, data: Record<string, unknown>) => this.broadcast("agent", { ...base, seq: ++agentSeq, stream, ts: Date.now(), data });
    const assistant = (text: string) => ({ role: "assistant", content: [{ type: "text", text }], timestamp: Date.now() });
    const log = this.history.get(sessionKey) ?? this.history.set(sessionKey, []).get(sessionKey)!;
    log.push({ role: "user", content: message, timestamp: Date.now() });
    this.touchSession(sessionKey, agentId, true);

    run.done = (async () => {
      // Let the `res` of the request go out first, as on the real gateway.
      await new Promise((r) => setImmediate(r));
      agent("lifecycle", { phase: "start", startedAt: Date.now() });
      chat({ state: "status", phase: "preparing_context" });
      chat({ state: "status", phase: "starting_model" });
      const finishAborted = () => {
        chat({ state: "aborted", stopReason: "rpc", message: assistant(run.text) });
        agent("lifecycle", { phase: "end", status: "cancelled", aborted: true, stopReason: "rpc" });
        return { status: "aborted", text: run.text };
      };
      try {
        const reply = await this.replyHook(agentId, message, sessionKey, { runId, signal: controller.signal });
        const spec = typeof reply === "string" ? { deltas: [reply] } : reply;
        const deltas = spec.deltas ?? (spec.text !== undefined ? [spec.text] : []);
        for (const delta of deltas) {
          if (spec.delayMs) await abortableSleep(spec.delayMs, controller.signal);
          if (controller.signal.aborted) return finishAborted();
          run.text += delta;
          agent("assistant", { text: run.text, delta });
          chat({ state: "delta", deltaText: delta, message: assistant(run.text) });
        }
        if (controller.signal.aborted) return finishAborted();
        if (spec.error) throw new Error(spec.error);
        const usage = spec.usage ?? { input: 10, output: Math.max(1, Math.ceil(run.text.length / 4)) };
        agent("lifecycle", { phase: "end", stopReason: "stop", terminalReply: { disposition: "visible", text: run.text } });
        chat({ state: "final", stopReason: "stop", message: assistant(run.text), usage });
        log.push({ ...assistant(run.text), provider: "fake", model: "fake-model", usage, stopReason: "stop" });
        return { status: "done", text: run.text };
      } catch (error) {
        if (controller.signal.aborted) return finishAborted();
        const errorMessage = error instanceof Error ? error.message : String(error);
        agent("lifecycle", { phase: "error", error: errorMessage });
        chat({ state: "error", errorMessage, errorDetail: { provider: "fake", model: "fake-model" } });
        return { status: "error", text: errorMessage };
      } finally {
        this.touchSession(sessionKey, agentId, false);
      }
    })();
    return run;
  }

  private touchSession(key: string, agentId: string, active: boolean): void {
    const row: GatewaySessionRow = { key, agentId, sessionId: this.autoSessions.get(key)?.sessionId ?? randomUUID(), model: "fake-model", modelProvider: "fake", updatedAt: Date.now(), status: active ? "running" : "done", hasActiveRun: active };
    this.autoSessions.set(key, row);
    this.broadcast("sessions.changed", { sessionKey: key, agentId, reason: active ? "send" : "agent.input.settled", ts: Date.now(), session: row }, (c) => c.subscribedSessions);
  }
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

// The model behind the real OpenClaw gateway in tests and benchmarks: a small
// OpenAI-compatible server on 127.0.0.1 (reference openclaw-gateway.md §3.4). It answers
// `GET /v1/models` and streaming `POST /v1/chat/completions` with the SSE chunks the
// gateway expects (role chunk, content chunks, finish chunk, usage chunk, `[DONE]`).
//
// Replies are deterministic and derived from the request, so a test can prove a message
// went through the gateway to the model and back: every `MARK-…` token of the last user
// message is echoed; a prompt asking for a JSON vote gets a valid vote. Tests change the
// behaviour per request with `model.use(hook)` (slow chunks for an abort, HTTP 400 for the
// error path, tool calls later) and read what the model received from `model.requests`.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ModelRequest {
  /** Arrival order, from 1. */
  n: number;
  receivedAt: number;
  body: ChatCompletionBody;
  /** The text of the last `user` message the human side wrote (parts joined; see `userTurnText`). */
  lastUserText: string;
  /** Every message's text, system prompt included, joined (what a hook may search). */
  allText: string;
  /**
   * The role of the last message past OpenClaw's own context block (which it appends after a
   * tool's result too, observed): `tool` when the gateway comes back with a tool's result (a
   * hook answering a marker with `toolCalls` must answer this follow-up with text, or loop).
   */
  lastRole: string;
}

export interface ChatCompletionBody {
  model?: string;
  stream?: boolean;
  messages?: Array<{ role: string; content?: unknown; [field: string]: unknown }>;
  [field: string]: unknown;
}

export interface ToolCallReply {
  name: string;
  /** Serialised into the chunk's `arguments` string. */
  arguments: Record<string, unknown>;
}

/** What the model does with one request; unset fields take the defaults. */
export interface ModelReply {
  /** Reply text (default: derived from the request, see `defaultReplyText`). */
  text?: string;
  /** Answer with this HTTP status and an OpenAI-style error body instead of a stream. */
  status?: number;
  /** Characters per content chunk (default 8). */
  chunkSize?: number;
  /** Pause before each content chunk, so a client can abort mid-stream (default 0). */
  chunkDelayMs?: number;
  /** Stream tool calls (finish reason `tool_calls`) instead of text. */
  toolCalls?: ToolCallReply[];
}

/** Returns a reply for the request, or undefined to leave it to the next hook / the default. */
export type ReplyHook = (request: ModelRequest) => ModelReply | undefined;

export interface FakeModel {
  /** Base URL for the gateway's provider config, ending in `/v1`. */
  baseUrl: string;
  port: number;
  /** Every chat completion request received, oldest first. */
  requests: ModelRequest[];
  /** Adds a hook (newest is asked first); returns its removal. */
  use(hook: ReplyHook): () => void;
  /** Resolves with the first request (past or future) matching `predicate`. */
  waitForRequest(predicate: (request: ModelRequest) => boolean, timeoutMs?: number, label?: string): Promise<ModelRequest>;
  /** Streams still open (a slow reply a client has not aborted yet). */
  openStreams(): number;
  stop(): Promise<void>;
}

export const MODEL_ID = "fake-model";
const MARKER = /\bMARK-[A-Za-z0-9_-]+/g;

export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((part) => (typeof part === "string" ? part : typeof part?.text === "string" ? part.text : "")).join("");
  return "";
}

// OpenClaw appends its own context as a separate user message after the real one, e.g.
// "<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>> Active exec sessions: none …" (observed).
const INTERNAL_CONTEXT = "<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>";

/** The last user message that is not OpenClaw's own context block. */
export function userTurnText(messages: NonNullable<ChatCompletionBody["messages"]>): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== "user") continue;
    const text = textOf(message.content);
    if (!text.trimStart().startsWith(INTERNAL_CONTEXT)) return text;
  }
  return "";
}

/** The role of the last message that is not OpenClaw's internal context block. */
export function lastRole(messages: NonNullable<ChatCompletionBody["messages"]>): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === "user" && textOf(message.content).trimStart().startsWith(INTERNAL_CONTEXT)) continue;
    return message.role;
  }
  return "";
}

/** The reply when no hook decides: a JSON vote when one is asked for, else the markers echoed. */
export function defaultReplyText(request: Pick<ModelRequest, "lastUserText">): string {
  const prompt = request.lastUserText;
  if (/\bvote\b/i.test(prompt) && /json/i.test(prompt)) {
    return JSON.stringify({ vote: "support", confidence: 0.9, reason: "The fake model supports every proposal it is shown." });
  }
  const markers = prompt.match(MARKER);
  return markers ? `Fake model reply: ${markers.join(" ")}` : "Hello from the fake model.";
}

export async function startFakeModel(): Promise<FakeModel> {
  const requests: ModelRequest[] = [];
  const hooks: ReplyHook[] = [];
  const waiters = new Set<(request: ModelRequest) => void>();
  const streams = new Set<ServerResponse>();

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: String(error), type: "server_error" } }));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (req.method === "GET" && path === "/v1/models") {
      return json(res, 200, { object: "list", data: [{ id: MODEL_ID, object: "model", created: 0, owned_by: "fake" }] });
    }
    if (req.method !== "POST" || path !== "/v1/chat/completions") return json(res, 404, { error: { message: `no route ${req.method} ${path}`, type: "not_found" } });

    const body = JSON.parse(await readBody(req)) as ChatCompletionBody;
    const messages = body.messages ?? [];
    const request: ModelRequest = {
      n: requests.length + 1,
      receivedAt: Date.now(),
      body,
      lastUserText: userTurnText(messages),
      allText: messages.map((m) => textOf(m.content)).join("\n"),
      lastRole: lastRole(messages),
    };
    requests.push(request);
    for (const waiter of [...waiters]) waiter(request);

    let reply: ModelReply = {};
    for (const hook of [...hooks].reverse()) {
      const answer = hook(request);
      if (answer) {
        reply = answer;
        break;
      }
    }
    if (reply.status && reply.status >= 400) {
      return json(res, reply.status, { error: { message: "fake model refused the request", type: "invalid_request_error", code: "fake_refusal" } });
    }
    if (body.stream === false) {
      // Not observed from OpenClaw, answered anyway so the fake is a complete peer.
      const text = reply.text ?? defaultReplyText(request);
      return json(res, 200, {
        id: `chatcmpl-fake-${request.n}`,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model: MODEL_ID,
        choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
        usage: usage(request, text),
      });
    }
    await stream(res, request, reply);
  }

  async function stream(res: ServerResponse, request: ModelRequest, reply: ModelReply): Promise<void> {
    streams.add(res);
    res.once("close", () => streams.delete(res));
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    const id = `chatcmpl-fake-${request.n}`;
    const created = Math.floor(Date.now() / 1000);
    const chunk = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}) =>
      `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: MODEL_ID, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
    const send = (text: string) => !res.destroyed && res.write(text);

    send(chunk({ role: "assistant", content: "" }, null));
    let text = "";
    if (reply.toolCalls?.length) {
      reply.toolCalls.forEach((call, index) => {
        send(chunk({ tool_calls: [{ index, id: `call_fake_${request.n}_${index}`, type: "function", function: { name: call.name, arguments: JSON.stringify(call.arguments) } }] }, null));
      });
      send(chunk({}, "tool_calls"));
    } else {
      text = reply.text ?? defaultReplyText(request);
      const size = Math.max(1, reply.chunkSize ?? 8);
      for (let i = 0; i < text.length; i += size) {
        if (reply.chunkDelayMs) await new Promise((r) => setTimeout(r, reply.chunkDelayMs));
        if (res.destroyed) return; // the gateway aborted the run
        send(chunk({ content: text.slice(i, i + size) }, null));
      }
      send(chunk({}, "stop"));
    }
    send(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: MODEL_ID, choices: [], usage: usage(request, text) })}\n\n`);
    send("data: [DONE]\n\n");
    res.end();
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    use(hook) {
      hooks.push(hook);
      return () => {
        const at = hooks.indexOf(hook);
        if (at >= 0) hooks.splice(at, 1);
      };
    },
    waitForRequest(predicate, timeoutMs = 60_000, label = "a model request") {
      const found = requests.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = (request: ModelRequest) => {
          if (!predicate(request)) return;
          waiters.delete(waiter);
          clearTimeout(timer);
          resolve(request);
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`timed out after ${timeoutMs} ms waiting for ${label}; the model got ${requests.length} request(s)`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    openStreams: () => streams.size,
    stop() {
      for (const res of streams) res.destroy();
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** Token counts the gateway can report: a rough words-per-token estimate, stable per request. */
function usage(request: ModelRequest, text: string) {
  const prompt = Math.max(1, Math.ceil(request.allText.length / 4));
  const completion = Math.max(1, Math.ceil(text.length / 4));
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

const MAX_BODY_BYTES = 20 * 1024 * 1024;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) req.destroy(new Error("request body over 20 MB"));
      else chunks.push(chunk);
    });
    req.once("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.once("error", reject);
  });
}

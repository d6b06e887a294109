// Shared by the chat, gateway-proxy and council suites: a host wired to a fake gateway, and a
// reader for POST /api/chat's event stream.
import { FakeGateway, type FakeGatewayOptions } from "../../helpers/fake-gateway.ts";
import { startTestHost, removeHome, type StartOptions, type TestHost } from "../../helpers/start-test-host.ts";
import { untilEveryInstance, waitUntil } from "../../helpers/wait.ts";
import type { ApiBody } from "@muster/plugin/testing";

export const TOKEN = "fake-token-0123456789";
/** Short reconnect clocks so a gateway restart is noticed within tens of milliseconds. */
export const FAST = { backoffInitialMs: 30, backoffMaxMs: 200, challengeTimeoutMs: 500, connectTimeoutMs: 1_000, stableAfterMs: 100, unauthorizedRetryMs: 60_000 };
export const AGENTS = [{ id: "main" }, { id: "helper" }, { id: "scout" }];

export interface Rig {
  gw: FakeGateway;
  h: TestHost;
  close(): Promise<void>;
}

/** A fake gateway with three agents and a host connected to it. */
export async function startRig(options: { gateway?: FakeGatewayOptions; host?: StartOptions } = {}): Promise<Rig> {
  const gw = await FakeGateway.start({ token: TOKEN, agents: AGENTS, tickIntervalMs: 5_000, ...options.gateway });
  const h = await startTestHost({ ...options.host, config: { gatewayUrl: gw.url, gatewayToken: TOKEN, gatewayTimings: FAST, ...options.host?.config } });
  await waitForGateway(h, "connected");
  return {
    gw,
    h,
    async close() {
      await h.stop();
      await gw.stop();
      removeHome(h.home);
    },
  };
}

/** Waits until the host (every instance of a team: untilEveryInstance) reports the gateway in `state`. */
export const waitForGateway = (h: TestHost, state: string, timeoutMs = 5_000) =>
  untilEveryInstance(async () => (await h.json<ApiBody<"getHealth">>("/api/health")).body?.gateway?.state === state, { timeoutMs, label: `gateway state ${state}` });

/** A promise with its resolve function, to hold a fake reply until the test lets it go. */
export function gate<T = void>(): { promise: Promise<T>; open(value: T): void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((r) => (open = r));
  return { promise, open };
}

export interface ChatStreamAnswer {
  status: number;
  headers: Headers;
  /** Parsed `data:` frames received so far. */
  frames: any[]; // raw stream frames: each kind (delta, reply, done, error) has its own shape, read field by field
  /** Resolves when the stream ends (or was aborted). */
  ended: Promise<void>;
  /** Resolves with the first frame (received or future) matching `predicate`. */
  next(predicate: (frame: any) => boolean, timeoutMs?: number): Promise<any>; // a raw stream frame, as `frames`
  /** Body of a non-stream answer. */
  body: any; // a non-stream answer (a refusal or a JSON reply), read field by field
}

/** POSTs /api/chat with Accept: text/event-stream and parses frames as they arrive. */
export async function chatStream(h: TestHost, body: unknown, signal?: AbortSignal): Promise<ChatStreamAnswer> {
  const res = await fetch(`${h.url}/api/chat`, { method: "POST", headers: { "content-type": "application/json", accept: "text/event-stream" }, body: JSON.stringify(body), signal });
  const frames: any[] = []; // raw stream frames (see ChatStreamAnswer.frames)
  const waiters = new Set<() => void>();
  if (!(res.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    return { status: res.status, headers: res.headers, frames, ended: Promise.resolve(), next: () => Promise.reject(new Error("not a stream")), body: JSON.parse(await res.text()) };
  }
  const ended = (async () => {
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const raw = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const data = raw.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("\n");
          if (data) frames.push(JSON.parse(data));
          for (const w of [...waiters]) w();
        }
      }
    } catch {
      // Aborted by the test.
    }
    for (const w of [...waiters]) w();
  })();
  return {
    status: res.status,
    headers: res.headers,
    frames,
    ended,
    body: undefined,
    next(predicate, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = frames.find(predicate);
          if (found) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(found);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(frames.map((f) => f.type))}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
}

// What the SDK does when the network or the server misbehaves: retries only what is safe to
// repeat, every error code as a typed error, and a stream that resumes with Last-Event-ID.
// The peers are small HTTP servers on 127.0.0.1 speaking Muster's envelope.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createMusterClient, errorStatuses, subscribe, MusterApiError, MusterNetworkError, MusterTimeoutError, type MusterStreamEvent } from "@muster/sdk";
import { startTestHost, removeHome } from "../helpers/start-test-host.ts";
import { waitUntil } from "../helpers/wait.ts";
import type { ApiBody } from "@muster/plugin/testing";

type Handler = (req: IncomingMessage, res: ServerResponse, n: number) => void;

async function stub(handler: Handler): Promise<{ url: string; calls: string[]; close(): Promise<void> }> {
  const calls: string[] = [];
  const server: Server = createServer((req, res) => {
    calls.push(`${req.method} ${req.url}`);
    handler(req, res, calls.length);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

const envelope = (res: ServerResponse, status: number, code: string, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ ok: false, error: { code, message: `${code} happened` } }));
};
const okJson = (res: ServerResponse, body: unknown, status = 200) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};
const rejection = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
};

const t = suite("sdk: transport faults");

t("a read is retried after 503 with Retry-After and after a dropped connection", async () => {
  const server = await stub((req, res, n) => {
    if (n === 1) return envelope(res, 503, "DATABASE_BUSY", { "retry-after": "0" });
    if (n === 2) return req.socket.destroy();
    okJson(res, []);
  });
  const muster = createMusterClient({ url: server.url, retries: 3 });
  assert.equal(await muster.getTasks(), []);
  assert.is(server.calls.length, 3);
  await server.close();
});

t("a write is never repeated after a dropped connection or a 503; a 429 (nothing done) is", async () => {
  const dropped = await stub((req) => req.socket.destroy());
  const error = await rejection(createMusterClient({ url: dropped.url, retries: 3 }).postTasks({ body: { title: "once" } }));
  assert.instance(error, MusterNetworkError);
  assert.is(dropped.calls.length, 1);
  await dropped.close();

  const busy = await stub((_req, res) => envelope(res, 503, "DATABASE_BUSY", { "retry-after": "0" }));
  const busyError = await rejection(createMusterClient({ url: busy.url, retries: 3 }).postTasks({ body: { title: "once" } }));
  assert.ok(busyError instanceof MusterApiError && busyError.code === "DATABASE_BUSY" && busyError.retryAfter === 0);
  assert.is(busy.calls.length, 1);
  await busy.close();

  const limited = await stub((_req, res, n) => (n === 1 ? envelope(res, 429, "RATE_LIMITED", { "retry-after": "0" }) : okJson(res, { id: "t1", title: "once" }, 201)));
  await createMusterClient({ url: limited.url }).postTasks({ body: { title: "once" } });
  assert.is(limited.calls.length, 2);
  await limited.close();
});

t("a call that gets no answer times out with MusterTimeoutError", async () => {
  const silent = await stub(() => {});
  const error = await rejection(createMusterClient({ url: silent.url, timeoutMs: 200, retries: 0 }).getHealth());
  assert.instance(error, MusterTimeoutError);
  await silent.close();
});

t("every catalogued error code surfaces as a MusterApiError with that code and status", async () => {
  const codes = Object.entries(errorStatuses);
  assert.ok(codes.length > 50, "the generated catalogue holds the server's codes");
  const server = await stub((req, res) => {
    const code = new URL(req.url!, "http://x").searchParams.get("status")!;
    envelope(res, errorStatuses[code as keyof typeof errorStatuses], code);
  });
  const muster = createMusterClient({ url: server.url, retries: 0 });
  for (const [code, status] of codes) {
    const error = await rejection(muster.getTasks({ query: { status: code as "backlog" } }));
    assert.ok(error instanceof MusterApiError, code);
    assert.is(error.code, code);
    assert.is(error.status, status);
  }
  await server.close();
});

t("the stream resumes after a dropped connection with Last-Event-ID and loses nothing", async () => {
  const h = await startTestHost();
  try {
    const lastEventIds: (string | null)[] = [];
    let streams = 0;
    // Cuts the first stream after its first frame, as a flaky network would.
    const flakyFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (!String(input).endsWith("/api/sse")) return response;
      lastEventIds.push(new Headers(init?.headers).get("last-event-id"));
      if (++streams > 1) return response;
      const reader = response.body!.getReader();
      const first = await reader.read();
      await reader.cancel();
      return new Response(new ReadableStream({ start: (c) => (c.enqueue(first.value), c.close()) }), { status: 200, headers: response.headers });
    };
    const events: MusterStreamEvent[] = [];
    const sub = subscribe({ url: h.url, fetch: flakyFetch }, { onEvent: (e) => events.push(e), maxRetryMs: 200 });
    await waitUntil(() => streams >= 2, { timeoutMs: 10_000, label: "reconnected" });
    await h.json<ApiBody<"postActivities">>("/api/activities", { method: "POST", body: { agentId: "scout", action: "after-reconnect" } });
    await waitUntil(() => events.some((e) => JSON.stringify(e.data).includes("after-reconnect")), { timeoutMs: 10_000, label: "event after reconnect" });
    assert.is(lastEventIds[0], null);
    assert.ok(lastEventIds[1], "the reconnect sent Last-Event-ID");
    assert.is(lastEventIds[1], events[0]!.id);
    sub.close();
    await sub.closed;
  } finally {
    await h.stop();
    removeHome(h.home);
  }
});

t.run();

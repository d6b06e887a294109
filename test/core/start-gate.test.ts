// The server listens before the plugins' onStart (a cold start's first answer comes
// earlier, issue 26): /api/health answers at once, but every other request waits at the
// start gate until the start has ended, so nothing half-started is ever served.
import { mkdtempSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { definePlugin, type PluginContext } from "@muster/plugin";
import { createHost, type Host } from "../../core/host.ts";
import { removeHome } from "../helpers/start-test-host.ts";
import { sleep, waitUntil } from "../helpers/wait.ts";

const t = suite("start gate");

/** A plugin whose onStart runs until the test lets it finish (or fail), and a route that says what it saw. */
function slowStarter() {
  let release!: (outcome: "finish" | "fail") => void;
  const outcome = new Promise<"finish" | "fail">((resolve) => (release = resolve));
  let entered!: () => void;
  const running = new Promise<void>((resolve) => (entered = resolve));
  let state = "registered";
  const plugin = definePlugin({
    id: "slow-start",
    version: "1.0.0",
    host: "^1.0.0",
    paths: ["/api/slow-start"],
    routes: (router) => void router.get("/api/slow-start", { summary: "What the plugin's start has done" }, () => ({ state })),
    async onStart() {
      state = "starting";
      entered();
      if ((await outcome) === "fail") throw new Error("the slow start failed");
      state = "started";
    },
  });
  return { plugin, running, release, state: () => state };
}

/** A host on a new home, its start begun but not awaited; its URL once it listens. */
async function beginStart(plugin: ReturnType<typeof slowStarter>["plugin"]) {
  const home = mkdtempSync(join(tmpdir(), "muster-home-"));
  const host: Host = createHost({ plugins: [plugin], config: { home, port: 0, host: "127.0.0.1", gatewayUrl: "off", logLevel: "silent" } });
  const start = host.start();
  start.catch(() => undefined); // awaited by the test
  return { host, home, start };
}

const listening = (host: Host): Promise<string> => waitUntil(() => (host.url.endsWith(":0") ? null : host.url), { timeoutMs: 10_000, label: "the server listening" });

const get = (url: string, token: string) => fetch(url, { headers: { "x-session-token": token, connection: "close" } });

/**
 * A GET whose request is in the server's hands when this resolves: sent on its own socket,
 * then a health round trip on another (the server reads the first socket's bytes before it
 * accepts the second), so the request is held at the gate, not still connecting.
 */
async function sentRequest(url: string, path: string, token: string): Promise<{ response: Promise<{ status: number; body: unknown }> }> {
  const response = new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const req = request(`${url}${path}`, { headers: { "x-session-token": token, connection: "close" } }, (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on("error", reject);
    req.end();
  });
  response.catch(() => undefined); // awaited by the test
  await get(`${url}/api/health`, token);
  return { response };
}

t("health answers while a plugin's onStart still runs; a request to a plugin's route waits and sees the finished start", async () => {
  const slow = slowStarter();
  const { host, home, start } = await beginStart(slow.plugin);
  try {
    await slow.running;
    const url = await listening(host);
    const health = await get(`${url}/api/health`, host.sessionToken);
    assert.is(health.status, 200);
    assert.is(((await health.json()) as { status: string }).status, "ok");
    assert.is(slow.state(), "starting", "health answered before the onStart ended");

    let answered = false;
    const pending = (await sentRequest(url, "/api/slow-start", host.sessionToken)).response.then((res) => ((answered = true), res));
    // A window in which the held request must not be answered.
    await sleep(200);
    assert.not.ok(answered, "the request waited for the start");
    slow.release("finish");
    const res = await pending;
    assert.is(res.status, 200);
    assert.equal(res.body, { state: "started" });
    await start;
  } finally {
    slow.release("finish");
    await host.stop();
    removeHome(home);
  }
});

/** A start held in a plugin's onStart, with a request to that plugin sent and waiting at the gate; stopped and cleaned up after `fn`. */
async function withHeldRequest(fn: (held: { host: Host; slow: ReturnType<typeof slowStarter>; start: Promise<void>; response: Promise<{ status: number; body: unknown }> }) => Promise<void>) {
  const slow = slowStarter();
  const { host, home, start } = await beginStart(slow.plugin);
  try {
    await slow.running;
    const url = await listening(host);
    const { response } = await sentRequest(url, "/api/slow-start", host.sessionToken);
    await fn({ host, slow, start, response });
  } finally {
    slow.release("finish");
    await host.stop();
    removeHome(home);
  }
}

function assertUnavailable(res: { status: number; body: unknown }) {
  assert.is(res.status, 503);
  assert.is((res.body as { error: { code: string } }).error.code, "SERVICE_UNAVAILABLE");
}

t("a start that fails after listening answers the waiting requests 503 SERVICE_UNAVAILABLE", () =>
  withHeldRequest(async ({ slow, start, response }) => {
    slow.release("fail");
    assertUnavailable(await response);
    await start.then(
      () => assert.unreachable("the start should fail"),
      (error: Error) => assert.match(error.message, /the slow start failed/),
    );
  }),
);

t("a stop during the start answers the waiting requests 503 at once and ends the start", () =>
  withHeldRequest(async ({ host, slow, start, response }) => {
    const stopped = host.stop();
    assertUnavailable(await response);
    slow.release("finish");
    await stopped;
    // The start ends there: no plugin after it starts, no watcher or server is left running.
    await start.then(
      () => assert.unreachable("a start stopped half way should fail"),
      (error: Error) => assert.match(error.message, /stopped during its start/),
    );
  }),
);

t("plugins given as a function load after listening: health answers before they are loaded; a graph error among them fails the start with its code, answers the held request 503 and frees the home", async () => {
  const home = mkdtempSync(join(tmpdir(), "muster-home-"));
  const config = { home, port: 0, host: "127.0.0.1", gatewayUrl: "off", logLevel: "silent" } as const;
  let letLoad!: () => void;
  const loadAllowed = new Promise<void>((resolve) => (letLoad = resolve));
  let loaded = false;
  const needsGhost = definePlugin({ id: "needs-ghost", version: "1.0.0", host: "^1.0.0", dependsOn: ["ghost"] });
  const host = createHost({ plugins: async () => (await loadAllowed, (loaded = true), [needsGhost]), config });
  const start = host.start();
  start.catch(() => undefined); // awaited below
  try {
    const url = await listening(host);
    const health = await get(`${url}/api/health`, host.sessionToken);
    assert.is(health.status, 200);
    assert.is(loaded, false, "health answered before the plugins were loaded");
    const { response } = await sentRequest(url, "/api/plugins", host.sessionToken);
    letLoad();
    assertUnavailable(await response);
    await start.then(
      () => assert.unreachable("a missing dependency should fail the start"),
      (error: { code?: string }) => assert.is(error.code, "PLUGIN_MISSING_DEPENDENCY"),
    );
    // Nothing is left holding the home: a start with a sound list succeeds on it.
    const next = createHost({ plugins: async () => [definePlugin({ id: "sound", version: "1.0.0", host: "^1.0.0" })], config });
    await next.start();
    const plugins = await get(`${next.url}/api/plugins`, next.sessionToken);
    assert.equal(((await plugins.json()) as { plugins: { id: string }[] }).plugins.map((p) => p.id), ["sound"]);
    await next.stop();
  } finally {
    letLoad();
    await host.stop();
    removeHome(home);
  }
});

t("a plugin's onServing hook runs once every request is let through, not while a later plugin still starts; one added after that runs at once; one that throws stops neither the host nor the next hook", async () => {
  const ran: string[] = [];
  let saved: PluginContext | undefined;
  const warm = definePlugin({
    id: "warm",
    version: "1.0.0",
    host: "^1.0.0",
    onStart(ctx) {
      saved = ctx;
      ctx.lifecycle.onServing(() => {
        throw new Error("a warm-up that fails");
      });
      ctx.lifecycle.onServing(() => void ran.push("registered in onStart"));
    },
  });
  const slow = slowStarter();
  const home = mkdtempSync(join(tmpdir(), "muster-home-"));
  const host = createHost({ plugins: [warm, slow.plugin], config: { home, port: 0, host: "127.0.0.1", gatewayUrl: "off", logLevel: "silent" } });
  const start = host.start();
  start.catch(() => undefined); // awaited below
  try {
    await slow.running;
    await listening(host);
    await sleep(50);
    assert.equal(ran, [], "no warm-up while a plugin's onStart still runs");
    slow.release("finish");
    await start;
    await waitUntil(() => (ran.length === 1 ? true : null), { timeoutMs: 5_000, label: "the warm-up after the start" });
    assert.equal(ran, ["registered in onStart"]);
    saved!.lifecycle.onServing(() => void ran.push("registered later"));
    await waitUntil(() => (ran.length === 2 ? true : null), { timeoutMs: 5_000, label: "the later warm-up" });
    assert.equal(ran, ["registered in onStart", "registered later"]);
    const health = await get(`${host.url}/api/health`, host.sessionToken);
    assert.is(health.status, 200);
  } finally {
    slow.release("finish");
    await host.stop();
    removeHome(home);
  }
});

t.run();

import { suite } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHost } from "../../core/host.ts";
import { definePlugin, MusterError } from "@muster/plugin";
import { lockPath, readInstanceLock } from "../../core/internal/instance-lock.ts";
import { removeHome, startTestHost } from "../helpers/start-test-host.ts";

// One server per MUSTER_HOME (issue 10 item 2), through createHost.
const t = suite("instance lock");

const tempHome = () => mkdtempSync(join(tmpdir(), "muster-lock-"));
const quiet = (home: string, extra: Record<string, unknown> = {}) => ({ env: {}, config: { port: 0, host: "127.0.0.1", logLevel: "silent" as const, home, workspaceDir: join(home, "ws"), ...extra } });

async function startError(start: () => Promise<void>): Promise<MusterError> {
  try {
    await start();
  } catch (error) {
    assert.instance(error, MusterError);
    return error as MusterError;
  }
  throw new Error("start succeeded");
}

/** A server holding a free port on 127.0.0.1 until it is closed. */
function holdFreePort(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}

t("a second host on the same home is refused before it touches anything; the first keeps working", async () => {
  const home = tempHome();
  let starts = 0;
  const counter = definePlugin({ id: "counter", version: "1.0.0", host: "^1.0.0", onStart: () => void starts++ });
  const first = await startTestHost({ home, workspace: join(home, "ws"), extraPlugins: [counter] });
  const token = readFileSync(join(home, "session-token"), "utf8");
  try {
    assert.equal(readInstanceLock(home)?.pid, process.pid);
    assert.is(readInstanceLock(home)?.url, first.url);

    const second = createHost({ ...quiet(home), extraPlugins: [counter] });
    const error = await startError(() => second.start());
    assert.is(error.code, "INSTANCE_RUNNING");
    assert.ok(error.message.includes(`pid ${process.pid}`), error.message);
    assert.ok(error.message.includes(first.url), error.message);
    await second.stop();

    assert.is(starts, 1, "the second host ran no plugin's onStart");
    assert.is(readFileSync(join(home, "session-token"), "utf8"), token, "the session token was not overwritten");
    assert.is(readInstanceLock(home)?.url, first.url, "the refused host left the lock alone");
    const created = await first.json("/api/tasks", { method: "POST", body: { title: "still mine" } });
    assert.is(created.status, 201);
    const deleted = await first.json(`/api/tasks/${created.body.id}`, { method: "DELETE", session: true });
    assert.is(deleted.status, 200, "the first host's session token still works");
  } finally {
    await first.stop();
  }
  assert.not.ok(existsSync(lockPath(home)), "stop releases the lock");
  const again = await startTestHost({ home, workspace: join(home, "ws") });
  await again.stop();
  removeHome(home);
});

t("a port in use is one PORT_IN_USE error naming PORT, and the failed start leaves no lock behind", async () => {
  const home = tempHome();
  const blocker = await holdFreePort();
  const port = (blocker.address() as { port: number }).port;
  try {
    const host = createHost(quiet(home, { port }));
    const error = await startError(() => host.start());
    assert.is(error.code, "PORT_IN_USE");
    assert.match(error.message, new RegExp(`^Port ${port} is in use .*\\(PORT=${port}\\); set PORT to another port$`));
    assert.not.ok(existsSync(lockPath(home)), "lock released");
    const next = await startTestHost({ home, workspace: join(home, "ws") });
    await next.stop();
  } finally {
    blocker.close();
    removeHome(home);
  }
});

t("a lock left by a process that no longer runs is taken over", async () => {
  const home = tempHome();
  const gone = spawnSync(process.execPath, ["-e", ""]).pid;
  writeFileSync(lockPath(home), JSON.stringify({ pid: gone, url: "http://127.0.0.1:1", port: 1, startedAt: new Date(0).toISOString(), version: "0.0.0", nonce: "old" }));
  const h = await startTestHost({ home, workspace: join(home, "ws") });
  try {
    assert.is(readInstanceLock(home)?.pid, process.pid);
    assert.is(readInstanceLock(home)?.url, h.url);
  } finally {
    await h.stop();
  }
  // An unreadable lock (not written by Muster) is not a running server either.
  writeFileSync(lockPath(home), "garbage");
  const again = await startTestHost({ home, workspace: join(home, "ws") });
  await again.stop();
  removeHome(home);
});

t.run();

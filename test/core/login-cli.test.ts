// `muster login` and the login link `muster start` prints (DESIGN §6, issue 8 item 2): the
// CLI reads the 0600 token file and asks the server for a one-time link; the token itself
// never goes to the browser.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../scripts/lib/free-port.ts";
import { startTestHost, removeHome, withTestHost } from "../helpers/start-test-host.ts";

const t = suite("muster login");
const main = join(new URL("../..", import.meta.url).pathname, "core/main.ts");

/** Runs `muster login` (asynchronously: the server under test lives in this process). */
function runLogin(env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [main, "login"], { env: { ...process.env, LOG_LEVEL: "silent", ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.on("exit", (status) => resolve({ status, stdout, stderr }));
  });
}

const openLink = (url: string) => fetch(url, { redirect: "manual" });

t("muster login reads the token file and prints a one-time link that logs a browser in", async () => {
  await withTestHost(async (h) => {
    const env = { MUSTER_HOME: h.home, PORT: new URL(h.url).port, HOST: "127.0.0.1" };
    const run = await runLogin(env);
    assert.is(run.status, 0, run.stderr);
    const url = run.stdout.trim();
    assert.match(url, new RegExp(`^${h.url}/login\\?code=[A-Za-z0-9_-]+$`));
    assert.not.ok(run.stdout.includes(h.token) || run.stderr.includes(h.token), "the token is never printed");
    const res = await openLink(url);
    assert.is(res.status, 303);
    assert.match(res.headers.getSetCookie()[0] ?? "", /^muster_session=.+HttpOnly/i);
    assert.match(res.headers.get("location") ?? "", /^\/#csrf=[A-Za-z0-9_-]+$/, "the CSRF secret in the redirect's fragment");
    assert.is((await openLink(url)).status, 401, "single use");
    const second = await runLogin(env);
    assert.is(second.status, 0);
    assert.is.not(second.stdout.trim(), url, "a new code each time");
  });
});

t("muster login fails clearly without a token file, with another server's token, or without a server; finds its home's server through the lock", async () => {
  const h = await startTestHost();
  const other = mkdtempSync(join(tmpdir(), "muster-login-"));
  try {
    const port = new URL(h.url).port;
    const missing = await runLogin({ MUSTER_HOME: other, PORT: port });
    assert.is(missing.status, 1);
    assert.match(missing.stderr, /cannot read .*session-token/);
    writeFileSync(join(other, "session-token"), `${"ab".repeat(32)}\n`, { mode: 0o600 });
    const wrong = await runLogin({ MUSTER_HOME: other, PORT: port });
    assert.is(wrong.status, 1);
    assert.match(wrong.stderr, /SESSION_TOKEN_REQUIRED/);
    assert.is(wrong.stdout, "", "no link");
    // A home with a token file but no running server: nothing answers at the configured port.
    const noServer = await runLogin({ MUSTER_HOME: other, PORT: String(await freePort()) });
    assert.is(noServer.status, 1);
    assert.match(noServer.stderr, /no server answers/);
    // The running server of a home is found through its instance lock, whatever PORT says.
    const viaLock = await runLogin({ MUSTER_HOME: h.home, PORT: String(await freePort()) });
    assert.is(viaLock.status, 0, viaLock.stderr);
    assert.match(viaLock.stdout.trim(), new RegExp(`^${h.url}/login\\?code=`));
  } finally {
    await h.stop();
    removeHome(h.home);
    removeHome(other);
  }
});

t("muster start prints a working login link on stderr, never the token, and not in the JSON log", async () => {
  const home = mkdtempSync(join(tmpdir(), "muster-login-"));
  const port = await freePort();
  const child = spawn(process.execPath, [main, "start"], {
    env: { ...process.env, PORT: String(port), MUSTER_HOME: home, WORKSPACE_DIR: join(home, "ws"), LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c) => (stdout += c));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no login link within 30 s: ${stderr}`)), 30_000);
      child.stderr.on("data", (c) => {
        stderr += c;
        const link = /http:\/\/127\.0\.0\.1:\d+\/login\?code=[A-Za-z0-9_-]+/.exec(stderr)?.[0];
        if (link) {
          clearTimeout(timer);
          resolve(link);
        }
      });
    });
    assert.ok(url.startsWith(`http://127.0.0.1:${port}/login?code=`));
    const res = await openLink(url);
    assert.is(res.status, 303);
    const code = new URL(url).searchParams.get("code")!;
    const { readFileSync } = await import("node:fs");
    const token = readFileSync(join(home, "session-token"), "utf8").trim();
    assert.not.ok(stdout.includes(code), "the code is not in the JSON log");
    assert.not.ok(stdout.includes(token) || stderr.includes(token), "the token is printed nowhere");
  } finally {
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await exited;
    removeHome(home);
  }
});

t("muster help lists login", () => {
  const run = spawnSync(process.execPath, [main, "help"], { encoding: "utf8", timeout: 30_000 });
  assert.match(run.stdout, /login\s+print a one-time browser login link/);
});

t.run();

// Team mode (issue 25): the session token, login links and browser sessions work whichever
// instance answers. Two real hosts (each with its own MUSTER_HOME) on one throwaway
// PostgreSQL database; skipped with the reason where PostgreSQL's binaries are missing.
import * as assert from "uvu/assert";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { workPlugin } from "../../plugins/work/index.ts";
import { removeHome, startTestHost, type TestHost } from "../helpers/start-test-host.ts";
import { postgresSuite } from "../helpers/postgres-cluster.ts";

const { t, test, database } = postgresSuite("sessions across instances on PostgreSQL");

const mintLink = (h: TestHost, token: string) => h.json<{ url: string }>("/api/auth/login-link", { method: "POST", headers: { "x-session-token": token } });
const openLink = (h: TestHost, url: string) => fetch(url.replace(/^http:\/\/[^/]+/, h.url), { redirect: "manual" });
const newTask = async (h: TestHost) => (await h.json<{ id: string }>("/api/tasks", { method: "POST", body: { title: "shared" } })).body.id;
const errorCode = async (res: Response) => ((await res.json()) as { error?: { code?: string } }).error?.code;

async function twoInstances(): Promise<[TestHost, TestHost]> {
  const url = await database();
  const a = await startTestHost({ plugins: [workPlugin], env: { DATABASE_URL: url } });
  const b = await startTestHost({ plugins: [workPlugin], env: { DATABASE_URL: url } }).catch(async (error) => {
    await a.stop();
    throw error;
  });
  return [a, b];
}

async function stop(hosts: TestHost[]) {
  for (const h of hosts) {
    await h.stop();
    removeHome(h.home);
  }
}

test("one session token for the deployment: each home's file holds it, and it works on the other instance", async () => {
  const [a, b] = await twoInstances();
  try {
    const fileA = readFileSync(join(a.home, "session-token"), "utf8").trim();
    const fileB = readFileSync(join(b.home, "session-token"), "utf8").trim();
    assert.is(fileA, fileB);
    assert.match(fileA, /^[0-9a-f]{64}$/);
    const id = await newTask(a);
    const refused = await b.json(`/api/tasks/${id}`, { method: "DELETE", headers: { "x-session-token": "0".repeat(64) } });
    assert.is(refused.status, 401);
    const deleted = await b.json(`/api/tasks/${id}`, { method: "DELETE", headers: { "x-session-token": fileA } });
    assert.is(deleted.status, 200, JSON.stringify(deleted.body));
  } finally {
    await stop([a, b]);
  }
});

test("a login link minted on one instance opens on the other, once; its cookie and CSRF secret work on both, another session's CSRF secret does not", async () => {
  const [a, b] = await twoInstances();
  try {
    const token = readFileSync(join(a.home, "session-token"), "utf8").trim();
    const link = await mintLink(a, token);
    assert.is(link.status, 200, JSON.stringify(link.body));
    const opened = await openLink(b, link.body.url);
    assert.is(opened.status, 303);
    const csrf = /^\/#csrf=([A-Za-z0-9_-]+)$/.exec(opened.headers.get("location") ?? "")?.[1];
    assert.ok(csrf, "the CSRF secret rides in the redirect's fragment");
    const cookie = opened.headers.getSetCookie()[0]!.split(";")[0]!;
    assert.not.ok(cookie.includes(token), "the cookie is not the session token");

    const again = await openLink(a, link.body.url);
    assert.is(again.status, 401, "a code works once across instances");
    assert.is(await errorCode(again), "LOGIN_CODE_INVALID");
    assert.is(again.headers.getSetCookie().length, 0);
    // A code whose signature was altered is refused too.
    const forged = await openLink(a, link.body.url.replace(/.$/, (c) => (c === "A" ? "B" : "A")));
    assert.is(forged.status, 401);

    for (const h of [a, b]) {
      const id = await newTask(h);
      const withOther = await h.json(`/api/tasks/${id}`, { method: "DELETE", headers: { cookie, origin: h.url, "x-muster-csrf": "x".repeat(43) } });
      assert.is(withOther.status, 403, "a CSRF secret not this session's");
      const withForgedCookie = await h.json(`/api/tasks/${id}`, { method: "DELETE", headers: { cookie: "muster_session=abc.99999999999999.def", origin: h.url, "x-muster-csrf": csrf! } });
      assert.is(withForgedCookie.status, 401);
      const deleted = await h.json(`/api/tasks/${id}`, { method: "DELETE", headers: { cookie, origin: h.url, "x-muster-csrf": csrf! } });
      assert.is(deleted.status, 200, `the browser session on ${h === a ? "A" : "B"}: ${JSON.stringify(deleted.body)}`);
    }
  } finally {
    await stop([a, b]);
  }
});

t.run();

// DESIGN §6 as amended (issue 8 item 2): no endpoint hands out the session token; a browser
// logs in through a one-time link and then holds an HttpOnly session cookie that counts only
// on same-origin requests; agents never log in.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startTestHost, removeHome, type TestHost } from "../helpers/start-test-host.ts";
import { createBrowserLogin, LOGIN_CODE_TTL_MS } from "../../core/internal/http/browser-login.ts";

const t = suite<{ h: TestHost }>("browser login");

t.before(async (ctx) => {
  ctx.h = await startTestHost();
});
t.after(async (ctx) => {
  await ctx.h.stop();
  removeHome(ctx.h.home);
});

const mintLink = (h: TestHost, headers: Record<string, string> = {}) =>
  h.json("/api/auth/login-link", { method: "POST", headers: { "x-session-token": h.token, ...headers } });
const openLink = (h: TestHost, url: string, headers: Record<string, string> = {}) =>
  fetch(url.replace(/^http:\/\/[^/]+/, h.url), { redirect: "manual", headers });

/** Logs a browser in: its cookie header (`muster_session=…`) and the CSRF secret from the redirect's fragment. */
async function logIn(h: TestHost): Promise<{ cookie: string; csrf: string }> {
  const link = await mintLink(h);
  const res = await openLink(h, link.body.url);
  assert.is(res.status, 303);
  const csrf = /^\/#csrf=([A-Za-z0-9_-]+)$/.exec(res.headers.get("location") ?? "")?.[1];
  assert.ok(csrf, "the CSRF secret rides in the redirect's fragment");
  return { cookie: res.headers.getSetCookie()[0]!.split(";")[0]!, csrf: csrf! };
}

t("POST /api/auth/login-link needs the X-Session-Token header and refuses agents", async ({ h }) => {
  const none = await h.json("/api/auth/login-link", { method: "POST" });
  assert.is(none.status, 401);
  assert.is(none.body.error!.code, "SESSION_TOKEN_REQUIRED");
  const wrong = await h.json("/api/auth/login-link", { method: "POST", headers: { "x-session-token": "0".repeat(64) } });
  assert.is(wrong.status, 401);
  const agent = await mintLink(h, { "x-agent-id": "odin" });
  assert.is(agent.status, 403);
  assert.is(agent.body.error!.code, "AGENT_CANNOT_LOG_IN");
  assert.not.ok(JSON.stringify(agent.body).includes("/login?code="));
  const ok = await mintLink(h);
  assert.is(ok.status, 200);
  assert.is(ok.body.ok, true);
  assert.match(ok.body.url, new RegExp(`^${h.url}/login\\?code=[A-Za-z0-9_-]{32}$`));
  const ttl = Date.parse(ok.body.expiresAt) - Date.now();
  assert.ok(ttl > LOGIN_CODE_TTL_MS - 60_000 && ttl <= LOGIN_CODE_TTL_MS, "expires in 10 minutes");
  assert.not.ok(JSON.stringify(ok.body).includes(h.token), "the link is not the token");
});

t("a login link gives an HttpOnly, SameSite=Strict cookie (not the token) and a 303 to /#csrf=<secret>, once", async ({ h }) => {
  const link = await mintLink(h);
  const res = await openLink(h, link.body.url);
  assert.is(res.status, 303);
  const location = res.headers.get("location") ?? "";
  assert.match(location, /^\/#csrf=[A-Za-z0-9_-]{43}$/, "the CSRF secret only in the fragment, which no server receives");
  assert.is(res.headers.get("cache-control"), "no-store");
  assert.is(res.headers.get("referrer-policy"), "no-referrer", "the code never leaves in a Referer");
  const cookies = res.headers.getSetCookie();
  assert.is(cookies.length, 1);
  const [pair, ...attributes] = cookies[0]!.split(/;\s*/);
  const [name, value] = pair!.split("=");
  assert.is(name, "muster_session");
  assert.ok(value && value.length >= 40);
  assert.not.ok(cookies[0]!.includes(h.token), "the cookie is a separate secret, not the file token");
  assert.not.ok(cookies[0]!.includes(location.slice("/#csrf=".length)), "the CSRF secret is not the cookie");
  const lower = attributes.map((a) => a.toLowerCase());
  assert.ok(lower.includes("httponly"));
  assert.ok(lower.includes("samesite=strict"));
  assert.ok(lower.includes("path=/"));
  assert.not.ok(lower.includes("secure"), "plain http on loopback: a Secure cookie would be dropped");

  const again = await openLink(h, link.body.url);
  assert.is(again.status, 401, "single use");
  assert.is(((await again.json()) as { error?: { code?: string } }).error?.code, "LOGIN_CODE_INVALID");
  assert.is(again.headers.getSetCookie().length, 0);
});

t("unknown, malformed and missing codes are refused; agents cannot redeem a code", async ({ h }) => {
  const unknown = await h.json("/login?code=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
  assert.is(unknown.status, 401);
  assert.is(unknown.body.error!.code, "LOGIN_CODE_INVALID");
  const missing = await h.json("/login");
  assert.is(missing.status, 400);
  assert.is(missing.body.error!.code, "VALIDATION_FAILED");
  const tokenAsCode = await h.json(`/login?code=${h.token}`);
  assert.is(tokenAsCode.status, 401, "the session token is not a login code");
  const link = await mintLink(h);
  const agent = await openLink(h, link.body.url, { "x-agent-id": "odin" });
  assert.is(agent.status, 403);
  assert.is(((await agent.json()) as { error?: { code?: string } }).error?.code, "AGENT_CANNOT_LOG_IN");
  assert.is(agent.headers.getSetCookie().length, 0);
});

t("the cookie works where the session token is required, only on same-origin requests (CSRF)", async ({ h }) => {
  const { cookie, csrf } = await logIn(h);
  const origin = h.url;
  const task = async () => (await h.json("/api/tasks", { method: "POST", body: { title: "keep me" } })).body.id as string;
  const exists = async (id: string) => (await h.json(`/api/tasks/${id}`)).status === 200;
  const del = (id: string, headers: Record<string, string>) => h.json(`/api/tasks/${id}`, { method: "DELETE", headers });

  const id = await task();
  const refusals: [Record<string, string>, number, string][] = [
    [{ cookie }, 403, "SESSION_COOKIE_NOT_SAME_ORIGIN"], // no Origin, no Sec-Fetch-Site
    [{ cookie, "sec-fetch-site": "same-site" }, 403, "SESSION_COOKIE_NOT_SAME_ORIGIN"], // another port of 127.0.0.1
    [{ cookie, "sec-fetch-site": "cross-site" }, 403, "SESSION_COOKIE_NOT_SAME_ORIGIN"],
    [{ cookie, origin: "https://evil.example" }, 403, "ORIGIN_NOT_ALLOWED"],
    [{ cookie, origin: "http://127.0.0.1:1" }, 403, "ORIGIN_NOT_ALLOWED"],
    [{ cookie: "muster_session=forged", origin }, 401, "SESSION_TOKEN_REQUIRED"],
    [{ cookie: `muster_session=${h.token}`, origin }, 401, "SESSION_TOKEN_REQUIRED"],
  ];
  for (const [headers, status, code] of refusals) {
    const res = await del(id, headers);
    assert.is(res.status, status, JSON.stringify(headers));
    assert.is(res.body.error!.code, code);
  }
  assert.ok(await exists(id), "no refused request deleted the task");

  assert.is((await del(id, { cookie, origin, "x-muster-csrf": csrf })).status, 200, "allowed Origin");
  assert.not.ok(await exists(id));
  const second = await task();
  assert.is((await del(second, { cookie, "sec-fetch-site": "same-origin", "x-muster-csrf": csrf })).status, 200, "Sec-Fetch-Site: same-origin");
  assert.not.ok(await exists(second));
});

t("the cookie alone is refused even with a forged allowed Origin (replay from another local port): it needs its own session's X-Muster-Csrf", async ({ h }) => {
  const a = await logIn(h);
  const b = await logIn(h);
  const origin = h.url;
  const id = (await h.json("/api/tasks", { method: "POST", body: { title: "keep me" } })).body.id as string;
  const del = (headers: Record<string, string>) => h.json(`/api/tasks/${id}`, { method: "DELETE", headers });
  const refusals: [string, Record<string, string>][] = [
    ["cookie alone, forged allowed Origin", { cookie: a.cookie, origin }],
    ["cookie alone, forged Sec-Fetch-Site", { cookie: a.cookie, "sec-fetch-site": "same-origin" }],
    ["wrong secret", { cookie: a.cookie, origin, "x-muster-csrf": "A".repeat(43) }],
    ["empty secret", { cookie: a.cookie, origin, "x-muster-csrf": "" }],
    ["session A's cookie, session B's secret", { cookie: a.cookie, origin, "x-muster-csrf": b.csrf }],
    ["the cookie value as the secret", { cookie: a.cookie, origin, "x-muster-csrf": a.cookie.split("=")[1]! }],
  ];
  for (const [why, headers] of refusals) {
    const res = await del(headers);
    assert.is(res.status, 403, why);
    assert.is(res.body.error!.code, "SESSION_CSRF_REQUIRED", why);
  }
  assert.is((await h.json(`/api/tasks/${id}`)).status, 200, "no refused request deleted the task");
  const noCookie = await del({ origin, "x-muster-csrf": a.csrf });
  assert.is(noCookie.status, 401, "the secret without its cookie counts for nothing");
  assert.is(noCookie.body.error!.code, "SESSION_TOKEN_REQUIRED");
  assert.is((await del({ cookie: b.cookie, origin, "x-muster-csrf": b.csrf })).status, 200, "session B with its own secret");
  const other = (await h.json("/api/tasks", { method: "POST", body: { title: "token path" } })).body.id as string;
  assert.is((await h.json(`/api/tasks/${other}`, { method: "DELETE", headers: { "x-session-token": h.token } })).status, 200, "X-Session-Token alone, unchanged");
});

t("CORS preflights allow the X-Muster-Csrf header", async ({ h }) => {
  const res = await fetch(`${h.url}/api/tasks/x`, { method: "OPTIONS", headers: { origin: h.url, "access-control-request-method": "DELETE" } });
  assert.is(res.status, 204);
  assert.ok((res.headers.get("access-control-allow-headers") ?? "").split(/,\s*/).includes("X-Muster-Csrf"));
});

t("the token, a login code or a session in the query string counts for nothing (catalogue A5)", async ({ h }) => {
  const id = (await h.json("/api/tasks", { method: "POST", body: { title: "stays" } })).body.id as string;
  const link = await mintLink(h);
  const code = new URL(link.body.url).searchParams.get("code")!;
  for (const query of [`token=${h.token}`, `x-session-token=${h.token}`, `code=${code}`, `muster_session=${code}`]) {
    const res = await h.json(`/api/tasks/${id}?${query}`, { method: "DELETE" });
    assert.is(res.status, 401, query);
    assert.is(res.body.error!.code, "SESSION_TOKEN_REQUIRED");
  }
  assert.is((await h.json(`/api/tasks/${id}`)).status, 200, "still there");
  assert.is((await openLink(h, link.body.url)).status, 303, "the code was not consumed by the query attempts");
});

t("a browser session cannot mint login links (the header token is required)", async ({ h }) => {
  const { cookie, csrf } = await logIn(h);
  const res = await h.json("/api/auth/login-link", { method: "POST", headers: { cookie, origin: h.url, "x-muster-csrf": csrf } });
  assert.is(res.status, 401);
  assert.is(res.body.error!.code, "SESSION_TOKEN_REQUIRED");
});

t("codes expire after 10 minutes, are single use, and only hashes are kept", () => {
  let clock = 1_000_000;
  const login = createBrowserLogin({ now: () => clock });
  const code = (url: string) => new URL(url).searchParams.get("code")!;
  const late = code(login.issue("http://127.0.0.1:1").url);
  const onTime = code(login.issue("http://127.0.0.1:1").url);
  clock += LOGIN_CODE_TTL_MS - 1;
  const issued = login.redeem(onTime);
  assert.ok(issued);
  assert.ok(login.sessionValid(issued!.session));
  assert.ok(login.csrfMatches(issued!.session, issued!.csrf));
  assert.not.ok(login.sessionValid(issued!.csrf), "the CSRF secret is not a session");
  assert.not.ok(login.csrfMatches(issued!.session, issued!.session));
  assert.is(login.redeem(onTime), null, "used");
  clock += 1;
  assert.is(login.redeem(late), null, "expired");
  assert.not.ok(login.sessionValid(onTime), "a code is not a session");
});

t.run();

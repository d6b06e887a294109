// Issue 22 finding 9: a secret whose value is a JSON credential (BLOG_API_KEY =
// {"accessToken": …}) was masked only as a whole, so a command printing just the inner token
// showed it. Every string inside a JSON credential is now redacted (at any depth), keeping
// the rule that values under 4 characters are not. Through the terminal in the real
// bubblewrap sandbox, with the secret passed by `secrets`.
import { rmSync } from "node:fs";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { removeHome } from "../../helpers/start-test-host.ts";
import { scratch, startTerminalHost, terminal, type TerminalHost } from "../terminal/helpers.ts";
import type { ApiBody } from "@muster/plugin/testing";

const ACCESS = "blog-inner-token-7f3a9c51";
const REFRESH = "blog-refresh-0d2e66aa";
const CREDENTIAL = JSON.stringify({ accessToken: ACCESS, account: { refresh: REFRESH, scopes: ["publish-drafts"] }, pin: "123" });

const t = suite<{ th: TerminalHost; dir: string }>("vault json credential redaction");

t.before(async (ctx) => {
  ctx.th = await startTerminalHost({ sandbox: "bwrap" });
  ctx.dir = scratch();
  const stored = await ctx.th.h.json<ApiBody<"postVault">>("/api/vault", { method: "POST", body: { name: "BLOG_API_KEY", value: CREDENTIAL } });
  assert.is(stored.status, 201, JSON.stringify(stored.body));
});
t.after(async (ctx) => {
  await ctx.th.h.stop();
  removeHome(ctx.th.h.home);
  rmSync(ctx.dir, { recursive: true, force: true });
});

t("a command printing only the inner token of a JSON credential shows it masked", async ({ th, dir }) => {
  const res = await terminal(th.h, { command: `echo "$BLOG_API_KEY" | cut -d'"' -f4`, cwd: dir, secrets: { BLOG_API_KEY: "BLOG_API_KEY" } });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.is(res.body.output, "[redacted:BLOG_API_KEY]\n");
});

t("every string leaf is masked at any depth (in arrays too); leaves under 4 characters are left alone", async ({ th, dir }) => {
  const res = await terminal(th.h, { command: `echo "$BLOG_API_KEY" | tr ',{}[]' '\\n\\n\\n\\n\\n'`, cwd: dir, secrets: { BLOG_API_KEY: "BLOG_API_KEY" } });
  assert.is(res.status, 200, JSON.stringify(res.body));
  const output: string = res.body.output;
  for (const leaf of [ACCESS, REFRESH, "publish-drafts"]) assert.not.ok(output.includes(leaf), `${leaf} shown: ${output}`);
  assert.match(output, /"accessToken":"\[redacted:BLOG_API_KEY\]"/);
  assert.match(output, /"refresh":"\[redacted:BLOG_API_KEY\]"/);
  assert.match(output, /"pin":"123"/, "a 3-character leaf is below the minimum length and stays");
});

t("the audit activity of a command holding the inner token is masked too", async ({ th, dir }) => {
  const res = await terminal(th.h, { command: `echo ${ACCESS} >/dev/null; echo ok`, cwd: dir });
  assert.is(res.status, 200, JSON.stringify(res.body));
  const activities = (await th.h.json<ApiBody<"getActivities">>("/api/activities?limit=5")).body as { details: string | null }[];
  const text = JSON.stringify(activities);
  assert.not.ok(text.includes(ACCESS), text);
  assert.ok(text.includes("[redacted:BLOG_API_KEY]"), text);
});

t.run();

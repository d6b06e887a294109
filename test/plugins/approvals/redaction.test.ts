// A gated action whose error quotes a stored secret (an HTTP client echoing a token): the
// value never reaches the approval record, activities, notifications or the log.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { Writable } from "node:stream";
import pino from "pino";
import { definePlugin } from "../../../core/plugin-api/index.ts";
import { startTestHost, removeHome } from "../../helpers/start-test-host.ts";

const SECRET = "sk-live-redaction-test-7f3a9c";
const KIND = "leaky.send";

const leakyPlugin = definePlugin({
  id: "leaky",
  version: "1.0.0",
  host: "^1.0.0",
  dependsOn: ["approvals"],
  paths: ["/api/leaky"],
  register(ctx) {
    ctx.gate.define<{ text: string }>(KIND, {
      describe: (p) => `Post "${p.text}"`,
      async execute() {
        throw new Error(`401 Unauthorized for Authorization: Bearer ${SECRET}`);
      },
    });
  },
  routes(router, ctx) {
    router.post("/api/leaky", { summary: "Request the leaky action", status: 201 }, async () => ({
      ok: true,
      ...(await ctx.gate.request(KIND, { text: "hello" }, { requestedBy: "scribe", title: "Post hello" })),
    }));
  },
});

const t = suite("approvals: executor errors are redacted");

t("a stored secret quoted by an executor error is redacted everywhere it is reported", async () => {
  let logs = "";
  const logger = pino({ level: "debug" }, new Writable({ write(chunk, _enc, done) { logs += chunk; done(); } }));
  const h = await startTestHost({ logger, extraPlugins: [leakyPlugin], config: { vaultKey: "redaction test passphrase" } });
  try {
    const stored = await h.json("/api/vault", { method: "POST", body: { name: "PUBLISHER_TOKEN", value: SECRET }, session: true });
    assert.is(stored.status, 201);
    const requested = await h.json("/api/leaky", { method: "POST" });
    assert.is(requested.status, 201);
    const decided = await h.json(`/api/approvals/${requested.body.approvalId}`, { method: "PATCH", body: { status: "approved" }, session: true });
    assert.is(decided.status, 200);
    const approval = (await h.json(`/api/approvals/${requested.body.approvalId}`)).body.approval;
    assert.is(approval.executionStatus, "failed");
    assert.match(approval.executionError, /\[redacted:PUBLISHER_TOKEN\]/);
    const everything = JSON.stringify([
      approval,
      (await h.json("/api/approvals")).body,
      (await h.json("/api/notifications")).body,
      (await h.json("/api/activities?limit=1000")).body,
    ]);
    assert.not.ok(everything.includes(SECRET), "no response carries the value");
    assert.ok(logs.includes("gated action failed"), "the failure was logged");
    assert.not.ok(logs.includes(SECRET), "the log does not carry the value");
  } finally {
    await h.stop();
    removeHome(h.home);
  }
});

t.run();

// No credential of a platform or of the bot ever reaches a log line, an event or an answer,
// even when the platforms fail and echo what they were sent (catalogue D31 for group F/H).
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { captureLogger } from "../vault/helpers.ts";
import { removeHome, startTestHost, type TestHost } from "../../helpers/start-test-host.ts";
import type { FromRoute, RequestInitJson } from "@muster/plugin/testing";
import { scaled } from "../../helpers/time-scale.ts";
import { eventRecorder, waitUntil } from "../../helpers/wait.ts";
import { LINKEDIN_TOKEN_VALUE, startLinkedInFake, type LinkedInFake } from "../../helpers/platform-fakes/linkedin.ts";
import { startXFake, X_CREDENTIALS, type XFake } from "../../helpers/platform-fakes/x.ts";
import { BOT_TOKEN, startTelegramFake, type TelegramFake } from "../../helpers/platform-fakes/telegram.ts";
import { configure, deliver, messengerOptions, press, WEBHOOK_SECRET } from "../messenger/helpers.ts";
import { approve, publishingOptions, setSecret, settled } from "./helpers.ts";

const SECRETS = [LINKEDIN_TOKEN_VALUE, ...Object.values(X_CREDENTIALS), BOT_TOKEN, WEBHOOK_SECRET];

interface Ctx {
  h: TestHost;
  li: LinkedInFake;
  x: XFake;
  tg: TelegramFake;
  logs: ReturnType<typeof captureLogger>;
  recorder: ReturnType<typeof eventRecorder>;
  answers: string[];
}
const t = suite<Ctx>("publishing and messenger never leak credentials");
t.before(async (ctx) => {
  [ctx.li, ctx.x, ctx.tg] = await Promise.all([startLinkedInFake(), startXFake(), startTelegramFake()]);
  ctx.logs = captureLogger();
  ctx.recorder = eventRecorder("*");
  ctx.answers = [];
  const publishing = publishingOptions({ linkedin: ctx.li.url, x: ctx.x.url }, { requestTimeoutMs: scaled(300), maxAttempts: 2 });
  const messenger = messengerOptions(ctx.tg.url);
  ctx.h = await startTestHost({
    ...publishing,
    logger: ctx.logs.logger,
    extraPlugins: [ctx.recorder.plugin],
    config: { ...publishing.config, approvers: ["frigg"], pluginConfig: { ...publishing.config!.pluginConfig, ...messenger.config!.pluginConfig } },
  });
  await configure(ctx.h);
  await setSecret(ctx.h, "LINKEDIN_ACCESS_TOKEN", LINKEDIN_TOKEN_VALUE);
  await setSecret(ctx.h, "TWITTER_API_KEY", JSON.stringify(X_CREDENTIALS));
});
t.after(async (ctx) => {
  await ctx.h.stop();
  await Promise.all([ctx.li.close(), ctx.x.close(), ctx.tg.close()]);
  removeHome(ctx.h.home);
});

/** `h.json`, keeping every answer for the leak check; typed from the literal path and method like `h.json`. */
async function call<const P extends string, M extends string = "GET">(ctx: Ctx, path: P, init: RequestInitJson & { method?: M } = {}) {
  const res = await ctx.h.json<FromRoute, P, M>(path, init);
  ctx.answers.push(JSON.stringify(res.body));
  return res;
}

t("failing platforms that echo credentials, failing Telegram calls and forged webhooks leave no secret behind", async (ctx) => {
  const { li, x, tg } = ctx;
  // LinkedIn refuses and echoes the token; X answers 500 quoting one OAuth part, twice (attempts exhausted).
  li.script("POST /rest/posts", { status: 400, json: { message: `bad request for Bearer ${LINKEDIN_TOKEN_VALUE}` } });
  x.script("POST /2/tweets", ...[1, 2].map(() => ({ status: 500, json: { detail: `upstream saw secret ${X_CREDENTIALS.accessSecret}` } })));
  tg.script(`POST /bot${BOT_TOKEN}/sendMessage`, ...[1, 2, 3].map(() => ({ status: 500, json: { ok: false, error_code: 500, description: `internal ${BOT_TOKEN}` } })));
  const draft = await call(ctx, "/api/content/drafts", { method: "POST", body: { text: "leak test", platforms: ["linkedin", "x"] } });
  const requested = await call(ctx, "/api/content/publish", { method: "POST", body: { draftId: draft.body.draft.id } });
  await ctx.recorder.waitFor("messenger.notice.failed", () => true, 5_000);
  await approve(ctx.h, requested.body.approval.id);
  const entries = await settled(ctx.h, requested.body.approval.id);
  assert.equal(entries.map((e) => e.status).sort(), ["failed", "failed"]);
  await call(ctx, `/api/content/outbox?approvalId=${requested.body.approval.id}`);
  await call(ctx, `/api/content/drafts/${draft.body.draft.id}`);
  await call(ctx, "/api/content/platforms");
  await call(ctx, `/api/approvals/${requested.body.approval.id}`);
  await call(ctx, "/api/notifications?limit=50");
  // The profile with a refused token, and webhooks with wrong secrets.
  await setSecret(ctx.h, "LINKEDIN_ACCESS_TOKEN", `${LINKEDIN_TOKEN_VALUE}-old`);
  await call(ctx, "/api/professional-network");
  for (const header of ["wrong", `${WEBHOOK_SECRET}x`]) {
    const res = await deliver(ctx.h, press("approve:x"), { "x-telegram-bot-api-secret-token": header });
    ctx.answers.push(JSON.stringify(res.body));
  }
  await waitUntil(() => ctx.logs.text().includes("publishing did not succeed"), { label: "failure logged" });

  const surfaces = { logs: ctx.logs.text(), events: JSON.stringify(ctx.recorder.events), answers: ctx.answers.join("\n") };
  for (const [where, text] of Object.entries(surfaces)) {
    for (const secret of SECRETS) assert.not.ok(text.includes(secret), `${where} contain a credential (${secret.slice(0, 6)}…)`);
  }
  assert.match(surfaces.answers, /\[redacted:LINKEDIN_ACCESS_TOKEN\]/);
  assert.match(surfaces.answers, /\[redacted:TWITTER_API_KEY\]/);
});

t.run();

// The body reader's refusals that every route inherits (issue 8 item 6, catalogue B12/B14/B18):
// lone surrogates and `__proto__` keys are refused instead of being stored changed.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startTestHost, removeHome, type TestHost } from "../helpers/start-test-host.ts";

const t = suite<{ h: TestHost }>("request bodies");

t.before(async (ctx) => {
  ctx.h = await startTestHost();
});
t.after(async (ctx) => {
  await ctx.h.stop();
  removeHome(ctx.h.home);
});

/** POSTs raw JSON text (so escapes reach the server exactly as written). */
const postRaw = <const P extends string>(h: TestHost, path: P, text: string) => h.json(path, { method: "POST", body: text, headers: { "content-type": "application/json" } });
const activityCount = async (h: TestHost) => (await h.json("/api/activities?limit=1000")).body.length as number;

t("a lone surrogate anywhere (value, key, nested, high or low) is refused with 400 INVALID_UNICODE; nothing is stored", async ({ h }) => {
  const before = await activityCount(h);
  const bodies = [
    String.raw`{"agentId":"a","action":"\ud800"}`,
    String.raw`{"agentId":"a","action":"x\uDFFFy"}`,
    String.raw`{"agentId":"a","action":"\ude00\ud83d"}`, // a pair in the wrong order
    String.raw`{"agentId":"a","action":"b","details":"ok\uDBFF"}`,
    String.raw`{"agentId":"a","action":"b","\ud800":1}`,
    String.raw`{"agentId":"a","action":"b","target":null,"x":[{"y":["\udc00"]}]}`,
    String.raw`"\ud800"`,
  ];
  for (const body of bodies) {
    const res = await postRaw(h, "/api/activities", body);
    assert.is(res.status, 400, body);
    assert.is(res.body.error!.code, "INVALID_UNICODE", body);
  }
  assert.is(await activityCount(h), before, "nothing stored");
});

t("well-formed text with escapes is stored and returned exactly (pairs, escaped backslashes, 4-byte emoji)", async ({ h }) => {
  const cases: [string, string][] = [
    [String.raw`"\ud83d\ude00 ok"`, "\u{1F600} ok"],
    [String.raw`"\\ud800 is text"`, "\\ud800 is text"], // an escaped backslash, not a surrogate escape
    [String.raw`"\u00e9\u200b\u202e"`, "\u00e9\u200b\u202e"],
    ['"\u{1F680} raw"', "\u{1F680} raw"],
  ];
  for (const [json, expected] of cases) {
    const res = await postRaw(h, "/api/activities", `{"agentId":"a","action":"b","details":${json}}`);
    assert.is(res.status, 201, json);
    assert.is(res.body.details, expected, json);
    const stored = (await h.json(`/api/activities?limit=1`)).body[0];
    assert.is(stored?.details, expected, `${json} read back`);
  }
});

t("a __proto__ key anywhere is refused with 400 UNSAFE_JSON_KEY; no pollution, nothing stored (catalogue B14)", async ({ h }) => {
  const approvalsBefore = (await h.json("/api/approvals")).body;
  const activitiesBefore = await activityCount(h);
  const bodies: [string, string][] = [
    ["/api/approvals", `{"title":"t","type":"x","requestedBy":"a","context":"c","payload":{"__proto__":{"isAdmin":true}}}`],
    ["/api/approvals", `{"title":"t","type":"x","requestedBy":"a","context":"c","payload":{"list":[{"deep":{"__proto__":{"polluted":1}}}]}}`],
    ["/api/approvals", String.raw`{"title":"t","type":"x","requestedBy":"a","context":"c","payload":{"\u005f_proto__":{"isAdmin":true}}}`],
    ["/api/activities", `{"__proto__":{"isAdmin":true},"agentId":"a","action":"b"}`],
  ];
  for (const [path, body] of bodies) {
    const res = await postRaw(h, path, body);
    assert.is(res.status, 400, body);
    assert.is(res.body.error!.code, "UNSAFE_JSON_KEY", body);
  }
  assert.is(({} as Record<string, unknown>).isAdmin, undefined);
  assert.is(({} as Record<string, unknown>).polluted, undefined);
  assert.equal((await h.json("/api/approvals")).body, approvalsBefore, "no approval was created");
  assert.is(await activityCount(h), activitiesBefore);
});

t("constructor.prototype and look-alike keys are kept as data, exactly as sent", async ({ h }) => {
  const payload = { constructor: { prototype: { isAdmin: true } }, proto: 1, ___proto___: 2, "__proto__ ": 3 };
  const res = await h.json("/api/approvals", { method: "POST", body: { title: "t", type: "x", requestedBy: "a", context: "c", payload } });
  assert.is(res.status, 201);
  const stored = await h.json(`/api/approvals/${res.body.approval.id}`);
  // Compared as text: deep-equal helpers read `.constructor`, which is data here.
  assert.is(JSON.stringify(stored.body.approval.payload), JSON.stringify(payload));
  assert.is(({} as Record<string, unknown>).isAdmin, undefined);
});

t.run();

// The families of public events (STREAM_EVENT_FAMILIES): each publisher describes its own,
// `GET /api/sse/families` lists them in plugin order, a family claiming another plugin's names
// stops the start, and what reaches the stream is unchanged (every public event, described
// or not: the probe's events have no family and still arrive).
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { contribute, definePlugin } from "@muster/plugin";
import { STREAM_EVENT_FAMILIES } from "../../../plugins/stream/tokens.ts";
import { builtInPlugins } from "../../../plugins/built-in.ts";
import { openSse } from "../../helpers/sse-client.ts";
import { withTestHost } from "../../helpers/start-test-host.ts";
import { startErrorCode } from "../../helpers/start-error.ts";
import { probePlugin } from "./probe-plugin.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite("stream: event families");

const describing = (id: string, pattern: string, description = "Gadgets were made") =>
  definePlugin({ id, version: "1.0.0", host: "^1.0.0", optionalDependsOn: ["stream"], contributions: [contribute(STREAM_EVENT_FAMILIES, { pattern, description })] });

t("GET /api/sse/families lists what the loaded plugins publish, with a description each", () =>
  withTestHost({ extraPlugins: [describing("gadgets", "gadgets.gadget.*")] }, async (h) => {
    const res = await h.json<ApiBody<"getSseFamilies">>("/api/sse/families");
    assert.is(res.status, 200);
    const families = res.body.families as { plugin: string; pattern: string; description: string }[];
    const patterns = families.map((f) => `${f.plugin}:${f.pattern}`);
    for (const expected of ["approvals:approvals.approval.*", "work:work.*", "vault:vault.secret.*", "activities:activities.activity.created", "rag:rag.index.*", "gadgets:gadgets.gadget.*"]) {
      assert.ok(patterns.includes(expected), `${expected} in ${patterns.join(", ")}`);
    }
    assert.ok(families.every((f) => f.description.length > 10 && f.pattern.startsWith(`${f.plugin}.`)));
    assert.is(new Set(patterns).size, patterns.length, "no family twice");
    assert.is((await h.json<ApiBody<"getSseFamilies">>("/api/sse/families?x=1")).body.error?.code, "VALIDATION_FAILED");
  }));

t("a family that names another plugin's events, or none, stops the start", async () => {
  const stream = builtInPlugins.filter((p) => p.id === "stream");
  assert.is(await startErrorCode({ plugins: [...stream, describing("gadgets", "work.task.*")] }), "STREAM_EVENT_FAMILY_INVALID");
  assert.is(await startErrorCode({ plugins: [...stream, describing("gadgets", "*")] }), "STREAM_EVENT_FAMILY_INVALID");
  assert.is(await startErrorCode({ plugins: [...stream, describing("gadgets", "gadgets.*", " ")] }), "STREAM_EVENT_FAMILY_INVALID");
  assert.is(await startErrorCode({ plugins: [...stream, describing("gadgets", "gadgets.*")] }), "started");
});

t("what reaches the stream is unchanged: a public event without a family arrives, a private one does not", () =>
  withTestHost({ plugins: [...builtInPlugins.filter((p) => p.id === "stream"), probePlugin] }, async (h) => {
    assert.equal((await h.json<ApiBody<"getSseFamilies">>("/api/sse/families")).body.families, []);
    const stream = await openSse(h.url);
    try {
      await stream.next((f) => f.data?.type === "connected", 20_000);
      await h.json("/api/stream-probe/publish", { method: "POST", body: { name: "probe.private.thing", public: false } });
      await h.json("/api/stream-probe/publish", { method: "POST", body: { name: "probe.public.thing" } });
      const frame = await stream.next((f) => f.data?.type === "event", 20_000);
      assert.is(frame.data.name, "probe.public.thing");
    } finally {
      stream.close();
    }
  }));

t.run();

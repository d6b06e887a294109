// `keptAnswer` (plugin kit): a route that returns the same kept object again is answered with
// the text made when it was kept, on the lean lane (a plain GET) and on Koa's chain (a POST)
// alike; a new kept object answers its own text; an object never kept is serialised on
// every answer as before (agent health, which keeps its answer, is checked to follow every
// change by test/plugins/agents).
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { definePlugin, defineRoutes, keptAnswer, z } from "@muster/plugin";
import { removeHome, startTestHost, type TestHost } from "../helpers/start-test-host.ts";

const t = suite("kept answer");

/** What the routes answer; changed by the test between requests. */
const state = { note: "first", kept: undefined as { ok: true; note: string } | undefined };

const keptPlugin = definePlugin({
  id: "kept-notes",
  version: "1.0.0",
  host: "^1.0.0",
  paths: ["/api/kept-notes"],
  routes: defineRoutes({
    deps: {},
    mount(router) {
      const kept = () => (state.kept ??= keptAnswer({ ok: true as const, note: state.note }));
      router.get("/api/kept-notes", { summary: "The kept answer" }, async () => kept());
      router.post("/api/kept-notes", { summary: "The kept answer, through Koa's chain", body: z.object({}) }, async () => kept());
      // The same object every time, never kept: serialised anew, so it shows each change.
      const plain = { ok: true as const, note: "" };
      router.get("/api/kept-notes/plain", { summary: "An answer never kept" }, async () => Object.assign(plain, { note: state.note }));
    },
  }),
});

let h: TestHost;
t.before(async () => {
  h = await startTestHost({ plugins: [], extraPlugins: [keptPlugin] });
});
t.after(async () => {
  await h.stop();
  removeHome(h.home);
});

t("the kept object answers the text made when it was kept, on both ways through the host", async () => {
  const first = await h.json("/api/kept-notes");
  assert.is(first.status, 200);
  assert.equal(first.body, { ok: true, note: "first" });
  assert.match(first.headers.get("content-type") ?? "", "application/json");
  // Changed behind the kept text: the answer stays the text of the moment it was kept.
  state.kept!.note = "changed in place";
  assert.equal((await h.json("/api/kept-notes")).body, { ok: true, note: "first" });
  const posted = await h.json("/api/kept-notes", { method: "POST", body: {} });
  assert.is(posted.status, 200);
  assert.equal(posted.body, { ok: true, note: "first" });
  // A new kept object answers its own text.
  state.note = "second";
  state.kept = undefined;
  assert.equal((await h.json("/api/kept-notes")).body, { ok: true, note: "second" });
});

t("an object that was never kept is serialised on every answer", async () => {
  state.note = "one";
  assert.equal((await h.json("/api/kept-notes/plain")).body, { ok: true, note: "one" });
  state.note = "two";
  assert.equal((await h.json("/api/kept-notes/plain")).body, { ok: true, note: "two" });
});

t.run();

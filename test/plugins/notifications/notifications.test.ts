// Notifications through HTTP: create, list (unread filter, limit, dismissed hidden), read and
// dismiss by id or all, events, and bad input refused with nothing changed.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { PluginDefinition } from "@muster/plugin";
import { activitiesPlugin } from "../../../plugins/activities/index.ts";
import { notificationsPlugin } from "../../../plugins/notifications/index.ts";
import { startTestHost, removeHome, type TestHost } from "../../helpers/start-test-host.ts";
import { eventRecorder } from "../../helpers/wait.ts";
import type { ApiBody } from "@muster/plugin/testing";

type List = ApiBody<"getNotifications">;
type Patched = ApiBody<"patchNotifications">;

/** Records notification bus events. */
const listener = eventRecorder("notifications.*");
const events = listener.events;

const plugins: PluginDefinition[] = [activitiesPlugin, notificationsPlugin];
const t = suite<{ h: TestHost }>("notifications");

async function create(h: TestHost, body: Record<string, unknown>) {
  const res = await h.json<ApiBody<"postNotifications">>("/api/notifications", { method: "POST", body: { type: "system", title: "Hello", ...body } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body.notification;
}
const list = async (h: TestHost, q = "limit=500") => (await h.json<List>(`/api/notifications?${q}`)).body;

t.before(async (ctx) => {
  ctx.h = await startTestHost({ plugins, extraPlugins: [listener.plugin] });
});
t.after(async (ctx) => {
  await ctx.h.stop();
  removeHome(ctx.h.home);
});

t("POST creates with defaults; GET lists newest first with unreadCount", async ({ h }) => {
  const first = await create(h, { title: "First", body: "b1" });
  assert.match(first.id, /^[0-9a-f-]{36}$/);
  assert.is(first.priority, "normal");
  assert.is(first.read, false);
  assert.is(first.dismissed, false);
  assert.is(first.readAt, null);
  assert.is(first.dismissedAt, null);
  assert.is(first.agentId, null);
  assert.is(first.href, null);
  const second = await create(h, { title: "Second", priority: "urgent", agentId: "odin", href: "/approvals" });
  assert.is(second.body, "");
  const res = await h.json<List>("/api/notifications");
  assert.is(res.status, 200);
  assert.is(res.body.ok, true);
  assert.equal(res.body.notifications.map((n) => n.id), [second.id, first.id]);
  assert.is(res.body.unreadCount, 2);
  await listener.waitFor("notifications.notification.created", (e) => (e.payload as { id?: string }).id === first.id);
  assert.ok(events.some((e) => e.name === "notifications.notification.created" && (e.payload as { id?: string }).id === first.id && e.public));
});

t("read by ids, unread filter, read_all; timestamps kept on repeat", async ({ h }) => {
  const a = await create(h, { title: "A" });
  const b = await create(h, { title: "B" });
  const res = await h.json<Patched>("/api/notifications", { method: "PATCH", body: { action: "read", ids: [a.id] } });
  assert.is(res.status, 200);
  assert.is(res.body.updated, 1);
  const read = (await list(h)).notifications.find((n) => n.id === a.id);
  assert.ok(read, "a is listed");
  assert.is(read.read, true);
  assert.ok(read.readAt);
  const unread = await list(h, "unread=true");
  assert.not.ok(unread.notifications.some((n) => n.id === a.id));
  assert.ok(unread.notifications.some((n) => n.id === b.id));
  assert.is(unread.unreadCount, unread.notifications.length);
  const readOnly = await list(h, "unread=false");
  assert.ok(readOnly.notifications.every((n) => n.read));
  const again = await h.json<Patched>("/api/notifications", { method: "PATCH", body: { action: "read", ids: [a.id] } });
  assert.is(again.body.updated, 0);
  assert.is((await list(h)).notifications.find((n) => n.id === a.id)?.readAt, read.readAt);
  const all = await h.json<Patched>("/api/notifications", { method: "PATCH", body: { action: "read_all" } });
  assert.ok(all.body.updated >= 1);
  assert.is(all.body.unreadCount, 0);
  assert.is((await list(h)).unreadCount, 0);
  await listener.waitFor("notifications.notification.updated", (e) => (e.payload as { action?: string }).action === "read_all");
  assert.ok(events.some((e) => e.name === "notifications.notification.updated" && (e.payload as { action?: string }).action === "read_all"));
});

t("dismiss hides notifications; dismiss_all hides the rest", async ({ h }) => {
  const c = await create(h, { title: "C" });
  const d = await create(h, { title: "D" });
  const res = await h.json<Patched>("/api/notifications", { method: "PATCH", body: { action: "dismiss", ids: [c.id, c.id] } });
  assert.is(res.body.updated, 1);
  const visible = await list(h);
  assert.not.ok(visible.notifications.some((n) => n.id === c.id));
  assert.ok(visible.notifications.some((n) => n.id === d.id));
  assert.is(visible.unreadCount, 1, "dismissed unread ones are not counted");
  await h.json<Patched>("/api/notifications", { method: "PATCH", body: { action: "dismiss_all" } });
  const none = await list(h);
  assert.is(none.notifications.length, 0);
  assert.is(none.unreadCount, 0);
});

t("limit: default 50, max 500", async ({ h }) => {
  for (let i = 0; i < 55; i++) await create(h, { title: `N${i}` });
  assert.is((await h.json<List>("/api/notifications")).body.notifications.length, 50);
  const three = (await h.json<List>("/api/notifications?limit=3")).body;
  assert.is(three.notifications.length, 3);
  assert.is(three.notifications[0]?.title, "N54");
  assert.is(three.unreadCount, 55);
});

t("bad input → 400, unknown ids → 404; nothing changes", async ({ h }) => {
  const target = await create(h, { title: "target" });
  const before = JSON.stringify(await list(h));
  const posts: [unknown, string][] = [
    [{}, "empty"],
    [{ type: "system" }, "title missing"],
    [{ type: "system", title: "" }, "title empty"],
    [{ type: "System!", title: "x" }, "bad type"],
    [{ type: "system", title: "x", priority: "critical" }, "bad priority"],
    [{ type: "system", title: "x", href: "javascript:alert(1)" }, "javascript href"],
    [{ type: "system", title: "x", href: "data:text/html,x" }, "data href"],
    [{ type: "system", title: "x", href: "//evil.example" }, "protocol-relative href"],
    [{ type: "system", title: "x", read: true }, "read-only read"],
    [{ type: "system", title: "x", id: "mine" }, "read-only id"],
    [{ type: "system", title: 5 }, "title number"],
  ];
  for (const [body, label] of posts) {
    const res = await h.json<ApiBody<"postNotifications">>("/api/notifications", { method: "POST", body });
    assert.is(res.status, 400, label);
    assert.is(res.body.error?.code, "VALIDATION_FAILED", label);
  }
  const patches: [unknown, string][] = [
    [{}, "action missing"],
    [{ action: "delete" }, "unknown action"],
    [{ action: "read" }, "ids missing"],
    [{ action: "read", ids: [] }, "ids empty"],
    [{ action: "read", ids: "x" }, "ids not an array"],
    [{ action: "read", ids: [42] }, "id not a string"],
    [{ action: "read", ids: ["../x"] }, "bad id"],
    [{ action: "read_all", ids: [target.id] }, "ids with read_all"],
    [{ action: "dismiss", ids: Array.from({ length: 501 }, (_, i) => `n${i}`) }, "too many ids"],
    [{ id: target.id }, "reference shape"],
  ];
  for (const [body, label] of patches) {
    const res = await h.json<Patched>("/api/notifications", { method: "PATCH", body });
    assert.is(res.status, 400, label);
    assert.is(res.body.error?.code, "VALIDATION_FAILED", label);
  }
  const missing = await h.json<Patched>("/api/notifications", { method: "PATCH", body: { action: "read", ids: [target.id, "no-such-id"] } });
  assert.is(missing.status, 404);
  assert.is(missing.body.error?.code, "NOTIFICATION_NOT_FOUND");
  for (const q of ["limit=0", "limit=501", "unread=yes", "bogus=1"]) assert.is((await h.json<ApiBody<"getNotifications">>(`/api/notifications?${q}`)).status, 400, q);
  assert.is(JSON.stringify(await list(h)), before, "the known id was not marked read either");
});

t("notifications survive a restart", async (ctx) => {
  const n = await create(ctx.h, { title: "durable", priority: "high" });
  ctx.h = await ctx.h.restart();
  const found = (await list(ctx.h)).notifications.find((x) => x.id === n.id);
  assert.ok(found);
  assert.is(found.priority, "high");
});

t.run();

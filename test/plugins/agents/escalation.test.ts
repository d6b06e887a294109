// Stuck agents escalate to the next level of the organisation's chain (DESIGN §14.7): once per
// stuck episode (the same last activity), also across a restart, with the spec's reason
// category, naming the agent.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { waitUntil } from "../../helpers/wait.ts";
import { refreshSessions, startAgentsRig, type AgentsRig } from "./agents-rig.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite<{ rig: AgentsRig }>("agents: stuck escalation");
t.before(async (ctx) => {
  ctx.rig = await startAgentsRig({ agentsConfig: { escalationCheckMs: 50 } });
});
t.after(async ({ rig }) => rig.close());

const stuckNotes = async (rig: AgentsRig, agentId: string) =>
  (await rig.h.json<ApiBody<"getNotifications">>("/api/notifications?limit=500")).body.notifications.filter((n) => n.type === "agent.stuck" && n.agentId === agentId);
const notified = (rig: AgentsRig, agentId: string, count: number) =>
  waitUntil(async () => ((await stuckNotes(rig, agentId)).length === count ? stuckNotes(rig, agentId) : null), { timeoutMs: 5_000, label: `${agentId} escalated ${count}x` });

t("execution → management → executive → owner, once per episode (also after a restart), new activity starts a new episode", async ({ rig }) => {
  const t0 = Date.now();
  // Fixed instants: the same last activity is the same episode.
  const at = (minutes: number) => t0 - minutes * 60_000;
  const sessions = (rows: Record<string, number>) => rig.gw.setSessions(Object.entries(rows).map(([id, ms]) => ({ key: `agent:${id}:main`, agentId: id, updatedAt: ms })));
  const state = (id: string, s: string) => (b: ApiBody<"getAgentsHealth">) => b.agents.find((a) => a.id === id)?.state === s;

  sessions({ loki: at(20), thor: at(1), odin: at(1), freya: at(1) });
  await refreshSessions(rig, state("loki", "stuck"));
  const [loki] = await notified(rig, "loki", 1);
  assert.ok(loki, "loki was notified");
  assert.match(loki.title, /loki/);
  assert.match(loki.title, /management \(thor\)/);
  assert.match(loki.body, /blocker/);
  assert.is(loki.priority, "high");

  // Thor stuck too: by the time thor is escalated, loki (same episode) has been checked again and again.
  sessions({ loki: at(20), thor: at(16), odin: at(1), freya: at(1) });
  await refreshSessions(rig, state("thor", "stuck"));
  const [thor] = await notified(rig, "thor", 1);
  assert.ok(thor, "thor was notified");
  assert.match(thor.title, /executive \(odin\)/);
  assert.match(thor.body, /deadline_risk/);
  sessions({ loki: at(20), thor: at(16), odin: at(25), freya: at(1) });
  await refreshSessions(rig, state("odin", "stuck"));
  const [odin] = await notified(rig, "odin", 1);
  assert.ok(odin, "odin was notified");
  assert.match(odin.title, /owner \(Daniel\)/);
  assert.match(odin.body, /strategy/);
  assert.is((await stuckNotes(rig, "loki")).length, 1, "one notification per stuck episode");
  assert.is((await stuckNotes(rig, "thor")).length, 1);

  // New activity, then silence again: a new episode, a new notification.
  sessions({ loki: at(18), thor: at(16), odin: at(25), freya: at(1) });
  await refreshSessions(rig, (b) => b.agents.find((a) => a.id === "loki")?.lastActivityMs === at(18));
  await notified(rig, "loki", 2);

  // A restart does not repeat an escalated episode: freya's new episode proves a check ran after it.
  sessions({ loki: at(18), thor: at(16), odin: at(25), freya: at(19) });
  rig.h = await rig.h.restart();
  await waitUntil(async () => (await rig.h.json<ApiBody<"getHealth">>("/api/health")).body?.gateway?.state === "connected", { timeoutMs: 5_000 });
  await notified(rig, "freya", 1);
  assert.is((await stuckNotes(rig, "loki")).length, 2);
  assert.is((await stuckNotes(rig, "thor")).length, 1);
  assert.is((await stuckNotes(rig, "odin")).length, 1);
});

t.run();

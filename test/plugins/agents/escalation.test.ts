// Stuck agents escalate to the next level of the organisation's chain (DESIGN §14.7): once per
// stuck episode, with the spec's reason category, naming the agent.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { waitUntil } from "../../helpers/wait.ts";
import { minutesAgo, refreshSessions, startAgentsRig, type AgentsRig } from "./agents-rig.ts";

const t = suite<{ rig: AgentsRig }>("agents: stuck escalation");
t.before(async (ctx) => {
  ctx.rig = await startAgentsRig({ agentsConfig: { escalationCheckMs: 50 } });
});
t.after(async ({ rig }) => rig.close());

const stuckNotes = async (rig: AgentsRig, agentId: string) =>
  (await rig.h.json("/api/notifications?limit=500")).body.notifications.filter((n: any) => n.type === "agent.stuck" && n.agentId === agentId);

t("execution → management → executive → owner, once per episode, a new episode notifies again", async ({ rig }) => {
  const sessions = (rows: Record<string, number>) =>
    rig.gw.setSessions(Object.entries(rows).map(([id, m]) => ({ key: `agent:${id}:main`, agentId: id, updatedAt: minutesAgo(m) })));
  sessions({ loki: 20, thor: 1, odin: 1, freya: 1 });
  await refreshSessions(rig, (b) => b.agents.find((a: any) => a.id === "loki")?.state === "stuck");
  const [loki] = await waitUntil(async () => ((await stuckNotes(rig, "loki")).length ? stuckNotes(rig, "loki") : null), { timeoutMs: 5_000, label: "loki escalated" });
  assert.match(loki.title, /loki/);
  assert.match(loki.title, /management \(thor\)/);
  assert.match(loki.body, /blocker/);
  assert.is(loki.priority, "high");

  // Thor stuck too: by the time thor is escalated, loki (still stuck) has been seen again and again.
  sessions({ loki: 21, thor: 16, odin: 1, freya: 1 });
  await refreshSessions(rig, (b) => b.agents.find((a: any) => a.id === "thor")?.state === "stuck");
  const [thor] = await waitUntil(async () => ((await stuckNotes(rig, "thor")).length ? stuckNotes(rig, "thor") : null), { timeoutMs: 5_000 });
  assert.match(thor.title, /executive \(odin\)/);
  assert.match(thor.body, /deadline_risk/);
  sessions({ loki: 22, thor: 17, odin: 25, freya: 1 });
  await refreshSessions(rig, (b) => b.agents.find((a: any) => a.id === "odin")?.state === "stuck");
  const [odin] = await waitUntil(async () => ((await stuckNotes(rig, "odin")).length ? stuckNotes(rig, "odin") : null), { timeoutMs: 5_000 });
  assert.match(odin.title, /owner \(Daniel\)/);
  assert.match(odin.body, /strategy/);
  assert.is((await stuckNotes(rig, "loki")).length, 1, "one notification per stuck episode");
  assert.is((await stuckNotes(rig, "thor")).length, 1);

  // Loki works again (episode over) while freya goes quiet: freya's escalation proves a check saw loki active.
  sessions({ loki: 0, thor: 17, odin: 25, freya: 20 });
  await refreshSessions(rig, (b) => b.agents.find((a: any) => a.id === "loki")?.state === "active");
  await waitUntil(async () => (await stuckNotes(rig, "freya")).length === 1, { timeoutMs: 5_000, label: "freya escalated" });
  sessions({ loki: 18, thor: 17, odin: 25, freya: 20 });
  await refreshSessions(rig, (b) => b.agents.find((a: any) => a.id === "loki")?.state === "stuck");
  await waitUntil(async () => (await stuckNotes(rig, "loki")).length === 2, { timeoutMs: 5_000, label: "second episode" });
});

t.run();

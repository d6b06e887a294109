// A failed read of the gateway's agents.list or sessions.list (a timeout under load, a call the
// team's link holder did not take in time) is read again within seconds: health's `registered`
// and sessions are not left stale until the next regular refresh (60 s and 30 s by default).
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { waitUntil } from "../../helpers/wait.ts";
import { healthSettled, minutesAgo, startAgentsRig, type AgentsRig } from "./agents-rig.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite<{ rig: AgentsRig }>("agents: failed gateway reads are retried soon");
t.before(async (ctx) => {
  // The regular refreshes are 10 minutes apart here: only a retry can read the lists again in time.
  ctx.rig = await startAgentsRig({ agentsConfig: { agentsRefreshMs: 600_000, sessionsRefreshMs: 600_000 } });
});
t.after(async ({ rig }) => rig.close());

const registered = (body: ApiBody<"getAgentsHealth">) => Object.fromEntries(body.agents.map((a) => [a.id, a.registered]));

t("agents.list and sessions.list failing on reconnection are read again within seconds, not at the next refresh", async ({ rig }) => {
  await healthSettled(rig, (b) => registered(b).main === true, "the first agents.list read");
  const asked = { agents: rig.gw.requests("agents.list").length, sessions: rig.gw.requests("sessions.list").length };
  for (const method of ["agents.list", "sessions.list"]) rig.gw.failWith(method, { code: "UNAVAILABLE", message: "busy" });
  rig.gw.setAgents([...rig.gw.agentList, { id: "odin", name: "odin" }]);
  rig.gw.setSessions([{ key: "agent:loki:main", agentId: "loki", updatedAt: minutesAgo(1), model: "m-small" }]);
  // A reconnection makes Muster read both lists; each read fails.
  rig.gw.closeAll();
  await waitUntil(() => rig.gw.requests("agents.list").length > asked.agents && rig.gw.requests("sessions.list").length > asked.sessions, {
    timeoutMs: 20_000,
    label: "both lists asked after the reconnection",
  });
  for (const method of ["agents.list", "sessions.list"]) rig.gw.override(method, undefined);
  const body = await healthSettled(
    rig,
    (b) => (registered(b).odin === true && b.agents.find((a) => a.id === "loki")?.sessionCount === 1 ? b : null),
    "odin registered and loki's session, read again after the failures",
  );
  assert.is(body.agents.find((a) => a.id === "loki")?.state, "active");
});

t.run();

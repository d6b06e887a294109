import { fileURLToPath } from "node:url";
import { contribute, definePlugin, hostPoints } from "@muster/plugin";
import { CONSOLE_PAGES, CONSOLE_PANELS } from "../dashboard/tokens.ts";
import { STREAM_EVENT_FAMILIES } from "../stream/tokens.ts";
import { agentsConfig, type AgentsConfig } from "./config.ts";
import { Agent } from "./entities/agent.ts";
import { Escalation } from "./entities/escalation.ts";
import { PackInstall } from "./entities/pack-install.ts";
import { LicenceChallenge, LicenceInstance } from "./entities/licence-challenge.ts";
import { migrations } from "./migrations.ts";
import { packsCommand } from "./cli/command.ts";
import { crewDoctorCheck } from "./cli/crew-check.ts";
import { organisationOwner } from "./services/owner-source.ts";
import { agentRoutes } from "./http/routes.ts";
import { configureAction, registerAction } from "./services/gated-actions.ts";
import { registerAgentServices } from "./services/register.ts";
import { startAgents } from "./services/lifecycle.ts";

/**
 * The crew (DESIGN §14.5): agent records mirrored from the organisation file, the factory,
 * health from the gateway's sessions, coverage, squad packs, heartbeat, per-agent tools and
 * sandbox, and escalation of stuck agents. Owns the crew capability (`CREW`, tokens.ts) that
 * chat, council, dispatch and crons ask who the agents are, and `muster doctor`'s crew check.
 */
export const agentsPlugin = definePlugin<AgentsConfig>({
  id: "agents",
  version: "1.0.0",
  host: "^1.0.0",
  // The organisation file is read through memory; approvals back the gate (registration and
  // configuration are gated); stuck agents are escalated as notifications.
  dependsOn: ["memory", "approvals", "notifications"],
  optionalDependsOn: ["stream", "dashboard"],
  paths: ["/api/agents", "/api/packs", "/api/heartbeat", "/api/marketplace"],
  config: agentsConfig,
  entities: [Agent, PackInstall, Escalation, LicenceInstance, LicenceChallenge],
  migrations,
  contributions: [
    contribute(STREAM_EVENT_FAMILIES, { pattern: "agents.*", description: "The agent records were synced with the organisation file, or a stuck agent was escalated" }),
    contribute(CONSOLE_PANELS, { id: "health", title: "Agent health", module: fileURLToPath(new URL("./console/health-panel.js", import.meta.url)) }),
    contribute(CONSOLE_PAGES, {
      id: "crew",
      title: "Crew",
      group: "crew",
      order: 10,
      module: fileURLToPath(new URL("./console/crew-page.ts", import.meta.url)),
      events: ["agents.*", "activities.activity.created"],
    }),
    contribute(CONSOLE_PAGES, {
      id: "marketplace",
      title: "Marketplace",
      group: "outside",
      order: 90,
      module: fileURLToPath(new URL("./console/marketplace-page.ts", import.meta.url)),
      events: ["agents.*"],
    }),
    crewDoctorCheck,
    // The owner the host uses when MUSTER_OWNER is not set: the organisation file's org.owner.
    contribute(hostPoints.ownerSources, organisationOwner),
  ],
  register: registerAgentServices,
  routes: agentRoutes,
  onStart: startAgents,
  gatedActions: [registerAction, configureAction],
  commands: [packsCommand],
});

export default agentsPlugin;

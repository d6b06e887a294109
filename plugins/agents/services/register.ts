import { configToken, defineService, hostTokens, type PluginContext } from "@muster/plugin";
import { MEMORY_READER } from "../../memory/tokens.ts";
import { NOTIFICATIONS } from "../../notifications/tokens.ts";
import type { AgentsConfig } from "../config.ts";
import { CREW } from "../tokens.ts";
import { AgentDirectoryService } from "./agent-directory.ts";
import { AgentFactory } from "./agent-factory.ts";
import { AgentStore } from "./agent-store.ts";
import { CrewRegistration } from "./crew-registration.ts";
import { CrewWriter } from "./crew-writer.ts";
import { Heartbeat } from "./heartbeat.ts";
import { ORG_FILE, orgEmojis, readOrgValues } from "./org-file.ts";
import { PackService } from "./pack-service.ts";
import { SessionSnapshot } from "./session-snapshot.ts";
import { StuckEscalation } from "./stuck-escalation.ts";
import { DIRECTORY, ESCALATION, FACTORY, HEARTBEAT, PACKS, REGISTRATION, SESSIONS, STORE, WRITER } from "./service-tokens.ts";

/** Who the factory and pack installs name as the requester of their approvals. */
const REQUESTED_BY = "muster-agents";

export function registerAgentServices(ctx: PluginContext<AgentsConfig>): void {
  ctx.provide(defineService({ token: STORE, deps: { db: hostTokens.db }, create: ({ db }) => new AgentStore(() => db) }));
  ctx.provide(
    defineService({
      token: SESSIONS,
      deps: { gateway: hostTokens.gateway, logger: hostTokens.logger, config: configToken<AgentsConfig>() },
      create: ({ gateway, logger, config }) => new SessionSnapshot({ gateway, logger, refreshMs: config.sessionsRefreshMs, coalesceMs: config.sessionsCoalesceMs }),
    }),
  );
  ctx.provide(
    defineService({
      token: DIRECTORY,
      deps: {
        store: STORE,
        sessions: SESSIONS,
        gateway: hostTokens.gateway,
        memory: MEMORY_READER,
        events: hostTokens.events,
        logger: hostTokens.logger,
        host: hostTokens.info,
        workspace: hostTokens.workspace,
        config: configToken<AgentsConfig>(),
        instances: hostTokens.instances,
        db: hostTokens.db,
      },
      create: ({ workspace, config, instances, db, ...deps }) =>
        new AgentDirectoryService({
          ...deps,
          db: () => db,
          shared: instances.shared,
          orgFile: workspace.resolve(ORG_FILE),
          refreshMs: config.agentsRefreshMs,
          orgEmojis: async () => orgEmojis(await readOrgValues(workspace.resolve(ORG_FILE))),
        }),
    }),
  );
  // The crew capability other plugins depend on: the same directory, seen through its interface.
  ctx.provide(defineService({ token: CREW, deps: { directory: DIRECTORY }, create: ({ directory }) => directory }));
  ctx.provide(defineService({ token: WRITER, deps: { workspace: hostTokens.workspace, directory: DIRECTORY, db: hostTokens.db }, create: ({ db, ...deps }) => new CrewWriter({ ...deps, db: () => db }) }));
  ctx.provide(
    defineService({
      token: FACTORY,
      deps: { workspace: hostTokens.workspace, directory: DIRECTORY, writer: WRITER, gate: hostTokens.gate },
      create: (deps) => new AgentFactory({ ...deps, requestedBy: REQUESTED_BY }),
    }),
  );
  ctx.provide(
    defineService({
      token: REGISTRATION,
      deps: { directory: DIRECTORY, gateway: hostTokens.gateway, gate: hostTokens.gate, workspace: hostTokens.workspace },
      create: (deps) => new CrewRegistration({ ...deps, requestedBy: REQUESTED_BY }),
    }),
  );
  ctx.provide(
    defineService({
      token: PACKS,
      deps: { workspace: hostTokens.workspace, db: hostTokens.db, directory: DIRECTORY, writer: WRITER, gate: hostTokens.gate, config: configToken<AgentsConfig>() },
      create: ({ db, ...deps }) => new PackService({ ...deps, db: () => db, requestedBy: REQUESTED_BY }),
    }),
  );
  ctx.provide(
    defineService({
      token: HEARTBEAT,
      deps: { directory: DIRECTORY, gateway: hostTokens.gateway, workspace: hostTokens.workspace },
      create: (deps) => new Heartbeat(deps),
    }),
  );
  ctx.provide(
    defineService({
      token: ESCALATION,
      deps: { directory: DIRECTORY, store: STORE, notifications: NOTIFICATIONS, events: hostTokens.events, logger: hostTokens.logger, config: configToken<AgentsConfig>() },
      create: ({ config, ...deps }) => new StuckEscalation({ ...deps, intervalMs: config.escalationCheckMs }),
    }),
  );
}

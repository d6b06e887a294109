import { configToken, defineService, hostTokens, type PluginContext } from "@muster/plugin";
import { CREW } from "../../agents/tokens.ts";
import { AGENT_TURNS } from "../../chat/tokens.ts";
import { USAGE } from "../../usage/tokens.ts";
import type { CouncilConfig } from "../config.ts";
import { COUNCIL } from "../tokens.ts";
import { CouncilService } from "./council-service.ts";
import { CouncilStore } from "./council-store.ts";
import { COUNCIL_RUNNER, COUNCIL_STORE } from "./service-tokens.ts";

/** Provides the council service. */
export function registerCouncilServices(ctx: PluginContext<CouncilConfig>): void {
  ctx.provide(defineService({ token: COUNCIL_STORE, deps: { db: hostTokens.db, instances: hostTokens.instances }, create: ({ db, instances }) => new CouncilStore(() => db, () => instances.id) }));
  ctx.provide(
    defineService({
      token: COUNCIL_RUNNER,
      deps: {
        store: COUNCIL_STORE,
        turns: AGENT_TURNS,
        gate: hostTokens.gate,
        workspace: hostTokens.workspace,
        events: hostTokens.events,
        gateway: hostTokens.gateway,
        logger: hostTokens.logger,
        rateLimits: hostTokens.rateLimits,
        config: configToken<CouncilConfig>(),
      },
      // Members and their roles come from the crew capability (the agents plugin); budgets and
      // cost events from usage; each when loaded.
      optionalDeps: { usage: USAGE, crew: CREW },
      create: (deps) => new CouncilService(deps),
    }),
  );
  ctx.provide(defineService({ token: COUNCIL, deps: { service: COUNCIL_RUNNER }, create: ({ service }) => service }));
}

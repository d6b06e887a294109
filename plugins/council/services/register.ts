import { USAGE } from "../../usage/tokens.ts";
import { configToken, defineService, hostTokens, token, type PluginContext } from "@muster/plugin";
import { ACTIVITIES } from "../../activities/tokens.ts";
import { AGENTS } from "../../agents/tokens.ts";
import { AGENT_DIRECTORY, AGENT_TURNS } from "../../chat/tokens.ts";
import { NOTIFICATIONS } from "../../notifications/tokens.ts";
import type { CouncilConfig } from "../config.ts";
import { COUNCIL } from "../tokens.ts";
import { CouncilService } from "./council-service.ts";
import { CouncilStore } from "./council-store.ts";
import { councilDecisionAction } from "./decision-action.ts";
import { COUNCIL_DECISION } from "./deliberation.ts";

/** The concrete pieces, for this plugin's lifecycle; other plugins get the `COUNCIL` interface. */
export const COUNCIL_STORE = token<CouncilStore>("council.store");
export const COUNCIL_RUNNER = token<CouncilService>("council.runner");

/** Provides the council service and declares the `council.decision` gated action. */
export function registerCouncilServices(ctx: PluginContext<CouncilConfig>): void {
  ctx.provide(defineService({ token: COUNCIL_STORE, deps: { db: hostTokens.db }, create: ({ db }) => new CouncilStore(() => db) }));
  ctx.provide(
    defineService({
      token: COUNCIL_RUNNER,
      deps: {
        store: COUNCIL_STORE,
        turns: AGENT_TURNS,
        agents: AGENT_DIRECTORY,
        gate: hostTokens.gate,
        workspace: hostTokens.workspace,
        events: hostTokens.events,
        gateway: hostTokens.gateway,
        logger: hostTokens.logger,
        config: configToken<CouncilConfig>(),
      },
      // Budgets and cost events when the usage plugin is loaded; the events carry the crew directory's model when the agents plugin is.
      optionalDeps: { usage: USAGE, crew: AGENTS },
      create: (deps) => new CouncilService(deps),
    }),
  );
  ctx.provide(defineService({ token: COUNCIL, deps: { service: COUNCIL_RUNNER }, create: ({ service }) => service }));
  ctx.gate.define(
    COUNCIL_DECISION,
    councilDecisionAction(() => ({
      store: ctx.resolve(COUNCIL_STORE),
      events: ctx.events,
      activities: ctx.has(ACTIVITIES) ? ctx.resolve(ACTIVITIES) : undefined,
      notifications: ctx.has(NOTIFICATIONS) ? ctx.resolve(NOTIFICATIONS) : undefined,
      logger: ctx.logger,
    })),
  );
}

import { configToken, defineService, hostTokens, token, type PluginContext } from "@muster/plugin";
import { ACTIVITIES } from "../../activities/tokens.ts";
import { APPROVALS } from "../../approvals/tokens.ts";
import { AGENTS } from "../../agents/tokens.ts";
import { AGENT_DIRECTORY, AGENT_TURNS } from "../../chat/tokens.ts";
import { MEMORY_READER } from "../../memory/tokens.ts";
import { NOTIFICATIONS } from "../../notifications/tokens.ts";
import { USAGE } from "../../usage/tokens.ts";
import { WORK } from "../../work/tokens.ts";
import type { DispatchConfig } from "../config.ts";
import { DISPATCH } from "../tokens.ts";
import { DispatchService } from "./dispatch-service.ts";
import { DispatchStore } from "./dispatch-store.ts";
import { ReviewFlow } from "./review-flow.ts";
import { ReviewStore } from "./review-store.ts";

/** The concrete services, for this plugin's lifecycle; other plugins get the `DISPATCH` interface. */
export const DISPATCH_SERVICE = token<DispatchService>("dispatch.dispatcher");
export const REVIEW_FLOW = token<ReviewFlow>("dispatch.reviewFlow");

export function registerDispatchServices(ctx: PluginContext<DispatchConfig>): void {
  ctx.provide(
    defineService({
      token: DISPATCH_SERVICE,
      deps: {
        db: hostTokens.db,
        work: WORK,
        turns: AGENT_TURNS,
        agents: AGENT_DIRECTORY,
        gateway: hostTokens.gateway,
        events: hostTokens.events,
        logger: hostTokens.logger,
        activities: ACTIVITIES,
        config: configToken<DispatchConfig>(),
      },
      // Budgets and cost events when the usage plugin is loaded; the agent's model from the crew directory.
      optionalDeps: { usage: USAGE, crew: AGENTS },
      create: ({ db, ...deps }) => new DispatchService({ ...deps, store: new DispatchStore(() => db) }),
    }),
  );
  ctx.provide(defineService({ token: DISPATCH, deps: { service: DISPATCH_SERVICE }, create: ({ service }) => service }));
  ctx.provide(
    defineService({
      token: REVIEW_FLOW,
      deps: { db: hostTokens.db, work: WORK, gate: hostTokens.gate, approvals: APPROVALS, events: hostTokens.events, notifications: NOTIFICATIONS, logger: hostTokens.logger, host: hostTokens.info },
      // The escalation chain comes from the crew directory, else from the organisation file; without either a blocked task goes to the owner.
      optionalDeps: { crew: AGENTS, memory: MEMORY_READER },
      create: ({ db, host, ...deps }) => new ReviewFlow({ ...deps, owner: host.owner, store: new ReviewStore(() => db) }),
    }),
  );
}

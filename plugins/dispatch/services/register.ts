import { configToken, defineService, hostTokens, type PluginContext } from "@muster/plugin";
import { ACTIVITIES } from "../../activities/tokens.ts";
import { APPROVALS } from "../../approvals/tokens.ts";
import { CREW } from "../../agents/tokens.ts";
import { AGENT_TURNS } from "../../chat/tokens.ts";
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
import { DISPATCH_SERVICE, REVIEW_FLOW } from "./service-tokens.ts";


export function registerDispatchServices(ctx: PluginContext<DispatchConfig>): void {
  ctx.provide(
    defineService({
      token: DISPATCH_SERVICE,
      deps: {
        db: hostTokens.db,
        instances: hostTokens.instances,
        work: WORK,
        turns: AGENT_TURNS,
        gateway: hostTokens.gateway,
        events: hostTokens.events,
        logger: hostTokens.logger,
        activities: ACTIVITIES,
        rateLimits: hostTokens.rateLimits,
        config: configToken<DispatchConfig>(),
      },
      // Budgets and cost events when the usage plugin is loaded; the assignee checked, and its model, by the crew capability.
      optionalDeps: { usage: USAGE, crew: CREW },
      create: ({ db, ...deps }) => new DispatchService({ ...deps, store: new DispatchStore(() => db, () => deps.instances.id) }),
    }),
  );
  ctx.provide(defineService({ token: DISPATCH, deps: { service: DISPATCH_SERVICE }, create: ({ service }) => service }));
  ctx.provide(
    defineService({
      token: REVIEW_FLOW,
      deps: { db: hostTokens.db, instances: hostTokens.instances, work: WORK, gate: hostTokens.gate, approvals: APPROVALS, events: hostTokens.events, notifications: NOTIFICATIONS, logger: hostTokens.logger, host: hostTokens.info },
      // The escalation chain comes from the crew capability, else from the organisation file; without either a blocked task goes to the owner.
      optionalDeps: { crew: CREW, memory: MEMORY_READER },
      create: ({ db, host, ...deps }) => new ReviewFlow({ ...deps, get owner() { return host.owner; }, store: new ReviewStore(() => db, () => deps.instances.id) }),
    }),
  );
}

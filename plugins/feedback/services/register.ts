import { defineService, hostTokens, type PluginContext } from "@muster/plugin";
import { FEEDBACK } from "../tokens.ts";
import { FeedbackService } from "./feedback-service.ts";

/** Provides the feedback service. */
export function registerFeedbackServices(ctx: PluginContext): void {
  ctx.provide(
    defineService({
      token: FEEDBACK,
      deps: { db: hostTokens.db, events: hostTokens.events, workspace: hostTokens.workspace },
      create: ({ db, ...deps }) => new FeedbackService({ db: () => db, ...deps }),
    }),
  );
}

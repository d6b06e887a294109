import { defineService, hostTokens, type PluginContext } from "@muster/plugin";
import { WORK } from "../tokens.ts";
import { WorkService } from "./work-service.ts";

/** Provides the work service. */
export function registerWorkServices(ctx: PluginContext): void {
  ctx.provide(
    defineService({
      token: WORK,
      deps: { db: hostTokens.db, events: hostTokens.events, redaction: hostTokens.redaction },
      create: ({ db, events, redaction }) => new WorkService({ db: () => db, events, redaction }),
    }),
  );
}

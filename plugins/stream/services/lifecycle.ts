import { configToken, defineHook, hostTokens } from "@muster/plugin";
import { STREAM } from "../tokens.ts";
import { SseHub } from "./sse-hub.ts";
import { TeamStreamRelay } from "./team-relay.ts";
import type { StreamConfig } from "../config.ts";

/**
 * Forwards bus events to SSE clients until shutdown. In team mode (PostgreSQL, which can
 * notify other instances) through the database, so every instance streams every instance's
 * events in one order (team-relay.ts).
 */
export const startStream = defineHook({
  deps: { stream: STREAM, db: hostTokens.db, instances: hostTokens.instances, logger: hostTokens.logger, config: configToken<StreamConfig>() },
  run: async ({ stream, db, instances, logger, config }, ctx) => {
    if (db.engine === "postgresql" && db.listen && stream instanceof SseHub) {
      const stop = await new TeamStreamRelay({ db, instances, hub: stream, logger, config }).start(ctx.events);
      ctx.lifecycle.onStop(stop);
      return;
    }
    ctx.lifecycle.onStop(stream.attach(ctx.events));
  },
});

/** Ends every open stream so the server can close. */
export const stopStream = defineHook({
  deps: { stream: STREAM },
  run: ({ stream }) => stream.close(),
});

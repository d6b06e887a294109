// `hostTokens.rateLimits`: limiters whose caps hold across the instances serving the database
// (plugin-api/rate-limit.ts). On SQLite one process serves, so a limiter is the in-memory one.
// In team mode each slot is a row of `muster_rate_slots`: taking one is one transaction that
// holds an advisory lock on the feature, counts the slots still held by live instances and the
// slots started within 60 s (the database's clock), and inserts a row or refuses with 429.
// A slot is released by stamping it; a slot of an instance that died stops counting with its
// heartbeat. Rows older than two minutes and released are removed as slots are taken.
import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { atomically } from "../plugin-api/atomic-step.ts";
import type { Instances } from "../plugin-api/instances.ts";
import { createRateLimiter, rateLimited, type RateLimits } from "../plugin-api/rate-limit.ts";
import type { OpenedDatabase } from "./database.ts";

const NOW_MS = "(extract(epoch from clock_timestamp()) * 1000)::bigint";

export function createRateLimits(db: OpenedDatabase, instances: Instances, logger: Logger): RateLimits {
  if (db.engine !== "postgresql") {
    return {
      create(options) {
        const limiter = createRateLimiter(options);
        return {
          async acquire() {
            const release = limiter.acquire();
            return async () => release();
          },
        };
      },
    };
  }
  return {
    create({ feature, concurrent, perMinute }) {
      return {
        async acquire() {
          const live = await instances.liveIds();
          const id = randomUUID();
          const inLive = live.map(() => "?").join(", ");
          const refusal = await atomically(db, function* (tx) {
            yield* tx.lock(`rate:${feature}`);
            yield* tx.run(`DELETE FROM muster_rate_slots WHERE feature = ? AND "releasedAt" IS NOT NULL AND "startedAt" < ${NOW_MS} - 120000`, [feature]);
            const held = yield* tx.get<{ n: number | string }>(`SELECT COUNT(*) AS n FROM muster_rate_slots WHERE feature = ? AND "releasedAt" IS NULL AND instance IN (${inLive})`, [feature, ...live]);
            if (Number(held?.n ?? 0) >= concurrent) return 1;
            const recent = yield* tx.get<{ n: number | string; oldest: number | string | null; now: number | string }>(
              `SELECT COUNT(*) AS n, MIN("startedAt") AS oldest, ${NOW_MS} AS now FROM muster_rate_slots WHERE feature = ? AND "startedAt" > ${NOW_MS} - 60000`,
              [feature],
            );
            if (Number(recent?.n ?? 0) >= perMinute) return Math.max(1, Math.ceil((Number(recent!.oldest) + 60_000 - Number(recent!.now)) / 1000));
            yield* tx.run(`INSERT INTO muster_rate_slots (id, feature, instance, "startedAt") VALUES (?, ?, ?, ${NOW_MS})`, [id, feature, instances.id]);
            return 0;
          });
          if (refusal > 0) throw rateLimited(feature, refusal);
          let released: Promise<void> | undefined;
          return () =>
            (released ??= atomically(db, function* (tx) {
              yield* tx.run(`UPDATE muster_rate_slots SET "releasedAt" = ${NOW_MS} WHERE id = ?`, [id]);
            }).catch((error: unknown) => logger.warn({ err: error, feature }, "a rate-limit slot could not be released; it frees itself when this instance stops")));
        },
      };
    },
  };
}

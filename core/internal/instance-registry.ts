// `hostTokens.instances`: which Muster processes serve the database (plugin-api/instances.ts).
// On PostgreSQL each instance has a row in `muster_instances` whose heartbeat it renews every
// second; times are the database's clock, so instances on machines whose clocks differ agree.
// An instance killed with -9 stops renewing and counts as dead after `deadAfterMs`; one that
// stops cleanly removes its row at once.
import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { Instances } from "../plugin-api/instances.ts";
import type { OpenedDatabase } from "./database.ts";

const HEARTBEAT_MS = 1_000;
const DEAD_AFTER_MS = 5_000;
/** Now in milliseconds by the database's clock (instances on machines whose clocks differ agree). */
export const NOW_MS = "(extract(epoch from clock_timestamp()) * 1000)::bigint";

export interface InstanceRegistry extends Instances {
  stop(): Promise<void>;
}

export async function startInstanceRegistry(db: OpenedDatabase, logger: Logger): Promise<InstanceRegistry> {
  const id = randomUUID();
  if (db.engine !== "postgresql") {
    return { id, deadAfterMs: 0, shared: false, liveIds: async () => [id], primary: () => true, stop: async () => {} };
  }
  const connection = db.orm.em.getConnection();
  const execute = (sql: string, params: unknown[] = [], method: "all" | "run" = "all") => connection.execute(sql, params, method) as Promise<unknown[]>;
  const startedAt = new Date().toISOString();
  await execute(`INSERT INTO muster_instances (id, "startedAt", "heartbeatAt") VALUES (?, ?, ${NOW_MS})`, [id, startedAt]);
  let beating: Promise<unknown> = Promise.resolve();
  // The live instance that started first (ties by id); read with each heartbeat.
  const readPrimary = async () => {
    const [first] = (await execute(`SELECT id FROM muster_instances WHERE "heartbeatAt" > ${NOW_MS} - ? ORDER BY "startedAt", id LIMIT 1`, [DEAD_AFTER_MS])) as { id: string }[];
    isPrimary = first?.id === id;
  };
  let isPrimary = false;
  await readPrimary();
  const timer = setInterval(() => {
    beating = execute(`UPDATE muster_instances SET "heartbeatAt" = ${NOW_MS} WHERE id = ?`, [id], "run")
      .then(async (result) => {
        // Removed by another instance's stop after a long stall: register again.
        if ((result as unknown as { affectedRows?: number }).affectedRows === 0) await execute(`INSERT INTO muster_instances (id, "startedAt", "heartbeatAt") VALUES (?, ?, ${NOW_MS}) ON CONFLICT (id) DO NOTHING`, [id, startedAt]);
        await readPrimary();
      })
      .catch((error: unknown) => {
        // A primary that cannot renew its heartbeat may already be replaced: it stops acting as one.
        isPrimary = false;
        logger.warn({ err: error }, "instance heartbeat failed");
      });
  }, HEARTBEAT_MS).unref();
  return {
    id,
    deadAfterMs: DEAD_AFTER_MS,
    shared: true,
    primary: () => isPrimary,
    async liveIds() {
      const rows = (await execute(`SELECT id FROM muster_instances WHERE "heartbeatAt" > ${NOW_MS} - ?`, [DEAD_AFTER_MS])) as { id: string }[];
      const ids = rows.map((r) => r.id);
      return ids.includes(id) ? ids : [id, ...ids];
    },
    async stop() {
      clearInterval(timer);
      await beating;
      // Rows of instances dead for a minute are removed by whoever stops next: the table stays small.
      await execute(`DELETE FROM muster_instances WHERE id = ? OR "heartbeatAt" < ${NOW_MS} - 60000`, [id]).catch((error: unknown) => logger.warn({ err: error }, "instance row not removed"));
    },
  };
}

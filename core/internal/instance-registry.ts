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
/** Team mode: how often each plugin's sweep (`everyWhileShared`) runs. */
const SWEEP_MS = 2_000;
/** Now in milliseconds by the database's clock (instances on machines whose clocks differ agree). */
export const NOW_MS = "(extract(epoch from clock_timestamp()) * 1000)::bigint";

export interface InstanceRegistry extends Instances {
  /** What a plugin gets as `hostTokens.instances`: its sweeps' errors are logged with its logger. */
  forPlugin(logger: Logger): Instances;
  /** Stops every sweep and waits for the runs in progress (the host's stop, before the plugins' onStop). */
  stopSweeps(): Promise<void>;
  stop(): Promise<void>;
}

type Registered = Omit<Instances, "everyWhileShared"> & { stop(): Promise<void> };

/** The repeated sweeps of every plugin (`Instances.everyWhileShared`), run only when `shared`. */
function withSweeps(instances: Registered, hostLogger: Logger): InstanceRegistry {
  const sweeps = new Set<{ timer: NodeJS.Timeout; running?: Promise<void> }>();
  let stopped = false;
  const everyWhileShared = (logger: Logger) => (name: string, sweep: () => Promise<unknown>) => {
    if (!instances.shared || stopped) return () => {};
    const entry: { timer: NodeJS.Timeout; running?: Promise<void> } = {
      timer: setInterval(() => {
        if (entry.running) return;
        entry.running = Promise.resolve()
          .then(sweep)
          .then(
            () => {},
            (error: unknown) => logger.warn({ err: error }, `${name} failed`),
          )
          .finally(() => (entry.running = undefined));
      }, SWEEP_MS).unref(),
    };
    sweeps.add(entry);
    return () => {
      clearInterval(entry.timer);
      sweeps.delete(entry);
    };
  };
  const view = (logger: Logger): Instances => ({
    id: instances.id,
    deadAfterMs: instances.deadAfterMs,
    shared: instances.shared,
    liveIds: () => instances.liveIds(),
    primary: () => instances.primary(),
    everyWhileShared: everyWhileShared(logger),
  });
  return {
    ...view(hostLogger),
    forPlugin: view,
    async stopSweeps() {
      stopped = true;
      const running = [...sweeps].map((entry) => (clearInterval(entry.timer), entry.running));
      sweeps.clear();
      await Promise.all(running);
    },
    async stop() {
      await this.stopSweeps();
      await instances.stop();
    },
  };
}

export async function startInstanceRegistry(db: OpenedDatabase, logger: Logger): Promise<InstanceRegistry> {
  const id = randomUUID();
  if (db.engine !== "postgresql") {
    return withSweeps({ id, deadAfterMs: 0, shared: false, liveIds: async () => [id], primary: () => true, stop: async () => {} }, logger);
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
  return withSweeps({
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
  }, logger);
}

// `db.listen(channel, onNotify)` on PostgreSQL: LISTEN belongs to one session, and a pooled
// connection goes back to the pool between statements, so each listener holds a `pg` client
// of its own. It reconnects by itself (backoff 250 ms → 5 s) when the server restarts or the
// link breaks, and after every (re)connect calls `onNotify("")` once: a notification sent
// while no session listened is lost, so the listener reads what it may have missed from its
// table instead (the stream relay reads every frame after the last one it saw).
import type { Logger } from "pino";
import type { DatabaseListener } from "../plugin-api/context.ts";
import type { PgConnection } from "./postgres-connection.ts";

/** The part of `pg`'s Client used here (`pg` ships no types). */
interface PgListenClient {
  connect(): Promise<void>;
  query(sql: string): Promise<unknown>;
  end(): Promise<void>;
  on(event: "notification", listener: (message: { channel: string; payload?: string }) => void): unknown;
  on(event: "error" | "end", listener: (error?: Error) => void): unknown;
}

const PG_MODULE: string = "pg";
const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;
const RETRY_MS = { first: 250, max: 5_000 };

export interface ListenOptions {
  /** DATABASE_URL's connection, as the pool's (postgres-connection.ts). */
  connection: PgConnection;
  connectTimeoutMs: number;
  logger: Logger;
}

export async function listenPostgres(options: ListenOptions, channel: string, onNotify: (payload: string) => void): Promise<DatabaseListener> {
  if (!CHANNEL.test(channel)) throw new TypeError(`db.listen: channel "${channel}" must be a lower-case identifier (letters, digits, _)`);
  // The driver MikroORM's PostgreSQL package runs on (the same pinned version, a dependency of
  // ours too); it ships no types, hence the specifier through a constant and the shape above.
  const { default: pg } = (await import(PG_MODULE)) as { default: { Client: new (config: object) => PgListenClient } };
  let client: PgListenClient | undefined;
  let closed = false;
  let retryMs = RETRY_MS.first;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ ...options.connection, connectionTimeoutMillis: options.connectTimeoutMs });
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost || closed) return;
      lost = true;
      options.logger.warn({ channel, err: error }, "database notifications: the listening connection was lost; reconnecting");
      void next.end().catch(() => {});
      schedule();
    };
    next.on("error", onLost);
    next.on("end", () => onLost());
    next.on("notification", (message) => {
      if (message.channel === channel) onNotify(message.payload ?? "");
    });
    await next.connect();
    await next.query(`LISTEN ${channel}`);
    if (closed) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
    retryMs = RETRY_MS.first;
    onNotify("");
  };

  const schedule = () => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      connect().catch((error: Error) => {
        options.logger.debug({ channel, err: error }, "database notifications: reconnect failed");
        retryMs = Math.min(retryMs * 2, RETRY_MS.max);
        schedule();
      });
    }, retryMs);
    retry.unref();
  };

  await connect();
  return {
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}

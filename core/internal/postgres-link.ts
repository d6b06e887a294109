// Watches the `pg` pool under MikroORM's PostgreSQL driver for two things the storage guard
// and /api/health need and neither MikroORM nor kysely reports:
// - a lost link: a server that is down, restarting or unreachable raises plain errors with
//   no SQLSTATE (`connect ECONNREFUSED …`, "Connection terminated unexpectedly", the pool's
//   "timeout exceeded when trying to connect"). They are marked as the database's
//   (DATABASE_LINK_LOST), so they answer 503 DATABASE_UNAVAILABLE, never 500, while the same
//   codes from a plugin's own network call keep meaning what they mean there.
// - rows changed: the count of rows Muster's statements inserted, updated or deleted, the
//   PostgreSQL counterpart of SQLite's `total_changes()`, by which WriteHealth sees that
//   writes work again after a fault.
import { DATABASE_LINK_LOST } from "./database-faults.ts";

/** The part of `pg`'s PoolClient used here (`pg` ships no types). */
interface PgClient {
  query: (...args: unknown[]) => unknown;
  end: () => Promise<void>;
}

/** The part of `pg`'s Pool used here. */
export interface PgPool {
  connect: (...args: unknown[]) => unknown;
  on(event: "connect", listener: (client: PgClient) => void): unknown;
}

/** `pg`'s messages for a query on a connection that broke or was closed under it. */
const LINK_MESSAGES = /^(Connection terminated|Client has encountered a connection error|Client was closed|Query read timeout)/;
/** Node's socket errors: the server's host or port went away. */
const NETWORK_CODES = /^(ECONNREFUSED|ECONNRESET|ECONNABORTED|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|EPIPE)$/;

function markLinkLost(error: unknown): unknown {
  if (error instanceof Error) Object.defineProperty(error, DATABASE_LINK_LOST, { value: true, configurable: true, writable: true });
  return error;
}

function isLinkError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return LINK_MESSAGES.test(error.message) || (typeof code === "string" && NETWORK_CODES.test(code));
}

/** The server ended this connection's backend: admin or crash shutdown, or it cannot accept it now. */
function isBackendEnded(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^57P0[123]$/.test(code);
}

/** What a `pg` query result says about the rows it changed. */
function changedRows(result: unknown): number {
  const { command, rowCount } = (result ?? {}) as { command?: unknown; rowCount?: unknown };
  if (typeof rowCount !== "number" || rowCount <= 0) return 0;
  return command === "INSERT" || command === "UPDATE" || command === "DELETE" || command === "MERGE" ? rowCount : 0;
}

export interface PostgresLink {
  /** Rows changed by Muster's statements since the pool was created. */
  readonly changes: number;
}

/**
 * Wraps the pool's `connect` (every failure to get a connection is a lost link: refused,
 * timed out, shut down) and each new connection's promise-returning `query` (a broken link,
 * and the rows changed). Called from MikroORM's `onPoolCreated`, before any connection exists.
 */
export function watchPostgresLink(pool: PgPool): PostgresLink {
  const link = { changes: 0 };
  const connect = pool.connect.bind(pool);
  pool.connect = (...args: unknown[]) => {
    const callback = args[0];
    if (typeof callback === "function") return connect((error: unknown, ...rest: unknown[]) => callback(error ? markLinkLost(error) : error, ...rest));
    return (connect() as Promise<unknown>).catch((error: unknown) => {
      throw markLinkLost(error);
    });
  };
  pool.on("connect", (client) => {
    const query = client.query.bind(client);
    client.query = (...args: unknown[]) => {
      const result = query(...args);
      // A cursor (kysely's streaming) or a callback-style call returns no promise: left alone.
      if (!(result instanceof Promise)) return result;
      return result.then(
        (value: unknown) => {
          link.changes += changedRows(value);
          return value;
        },
        (error: unknown) => {
          // A server that ended this backend (57P01-57P03: pg_terminate_backend, a shutdown)
          // closes its socket just after the error; released as it is, the pool could hand
          // the dying connection to the next request, whose query then fails with "Connection
          // terminated unexpectedly". Ended here, the pool drops it on release instead.
          if (isLinkError(error) || isBackendEnded(error)) void client.end().catch(() => {});
          throw isLinkError(error) ? markLinkLost(error) : error;
        },
      );
    };
  });
  return link;
}

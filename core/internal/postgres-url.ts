// `DATABASE_URL` read as libpq reads a connection URI (PostgreSQL's docs, "Connection URIs"),
// for the parts Muster's driver (`pg`, under MikroORM) needs and does not read itself:
// - the host may be a Unix socket directory, percent-encoded in the authority
//   (`postgres://user@%2Frun%2Fpostgresql/db`) or given as the `host` parameter
//   (`postgres:///db?host=/run/postgresql`); the socket is `<dir>/.s.PGSQL.<port>`;
// - `user` may be a parameter too (`postgres:///db?host=/run/postgresql&user=muster`);
// - `sslmode` (disable, allow, prefer, require, verify-ca, verify-full; libpq's default is
//   prefer) with `sslrootcert`, `sslcert` and `sslkey`; postgres-connection.ts maps them to
//   the driver's TLS options. Other parameters are not read.
// Pure (no driver loaded): config.ts checks a URL with it, so a bad one stops start-up with
// CONFIG_INVALID before anything opens.

export const SSL_MODES = ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"] as const;
export type SslMode = (typeof SSL_MODES)[number];

export interface PostgresTarget {
  /** A host name or address, or a Unix socket directory (starts with `/`). */
  host: string;
  port: number;
  user?: string;
  password?: string;
  database: string;
  sslMode: SslMode;
  /** Files named by `sslrootcert`, `sslcert`, `sslkey` (read when the connection opens). */
  sslRootCert?: string;
  sslCert?: string;
  sslKey?: string;
}

const DEFAULT_PORT = 5432;
/** Stands for the empty host of `postgres://user@/db?host=…`, which WHATWG URLs refuse and libpq reads. */
const EMPTY_HOST = "muster-empty-host.invalid";

/** `url` as a URL (also with an empty host after a user), and how to print it back as written. */
export function databaseUrl(url: string): { parsed: URL; text: () => string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (error) {
    if (!url.includes("@/")) throw error;
    parsed = new URL(url.replace("@/", `@${EMPTY_HOST}/`));
  }
  return { parsed, text: () => parsed.toString().replace(`@${EMPTY_HOST}/`, "@/") };
}

/**
 * The connection `url` names; throws an Error whose message says what is wrong (never the
 * password), e.g. an sslmode libpq does not know.
 */
export function parsePostgresUrl(url: string): PostgresTarget {
  let parsed: URL;
  try {
    parsed = databaseUrl(url).parsed;
  } catch {
    throw new Error("it is not a URL");
  }
  if (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:") throw new Error(`its scheme is ${parsed.protocol.replace(/:$/, "")}, not postgres or postgresql`);
  const params = parsed.searchParams;
  const decode = (value: string) => {
    try {
      return decodeURIComponent(value);
    } catch {
      throw new Error("it has a malformed percent-encoding");
    }
  };
  // IPv6 addresses come bracketed; a socket directory percent-encoded.
  const named = parsed.hostname === EMPTY_HOST ? "" : decode(parsed.hostname).replace(/^\[(.*)\]$/, "$1");
  const host = params.get("host") || named;
  if (!host) throw new Error("it names no host: give a host name, an address, or a socket directory (postgres:///db?host=/run/postgresql)");
  const portText = params.get("port") || parsed.port;
  const port = portText ? Number(portText) : DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`its port "${portText}" is not a port number`);
  const database = decode(parsed.pathname.replace(/^\//, ""));
  if (!database) throw new Error("it names no database (the path: postgres://host/database)");
  const sslMode = params.get("sslmode") ?? "prefer";
  if (!(SSL_MODES as readonly string[]).includes(sslMode)) throw new Error(`its sslmode "${sslMode}" is not one of ${SSL_MODES.join(", ")}`);
  const optional = (name: string) => params.get(name) || undefined;
  return {
    host,
    port,
    user: params.get("user") || (parsed.username ? decode(parsed.username) : undefined),
    password: parsed.password ? decode(parsed.password) : undefined,
    database,
    sslMode: sslMode as SslMode,
    sslRootCert: optional("sslrootcert"),
    sslCert: optional("sslcert"),
    sslKey: optional("sslkey"),
  };
}

// The `pg` driver's connection options for a DATABASE_URL (postgres-url.ts), with `sslmode`
// mapped to its TLS options as libpq means them:
// - disable: no TLS;
// - allow: without TLS, and with TLS (unverified) only when the server refuses the first;
// - prefer (libpq's default): TLS unverified, and without TLS when the server has none;
// - require: TLS unverified, or verified against `sslrootcert` when it is given (libpq's rule);
// - verify-ca: TLS, the certificate signed by a trusted root, its name not checked;
// - verify-full: TLS, signed by a trusted root and naming the host.
// The trusted roots are `sslrootcert` (a file, or `system`), else libpq's default file
// `~/.postgresql/root.crt` when it exists, else Node's (the system's) roots; `sslcert` and
// `sslkey` are the client's certificate. `pg` cannot fall back from one to the other per
// connection, so for allow and prefer one probe connection at open decides for the pool.
// Over a Unix socket, as in libpq, no TLS is used whatever the mode.
import { existsSync, readFileSync } from "node:fs";
import { homedir, userInfo } from "node:os";
import { join } from "node:path";
import { checkServerIdentity, type ConnectionOptions } from "node:tls";
import { parsePostgresUrl, type PostgresTarget } from "./postgres-url.ts";

export interface PgConnection {
  host: string;
  port: number;
  user?: string;
  password?: string;
  database: string;
  ssl: false | ConnectionOptions;
}

interface PgProbeClient {
  connect(): Promise<void>;
  end(): Promise<void>;
  on(event: "error", listener: (error: Error) => void): unknown;
}

const PG_MODULE: string = "pg";

/** libpq's default root certificate file. */
const LIBPQ_ROOT_CERT = join(homedir(), ".postgresql", "root.crt");

/** `pg`'s message when the server answers an SSLRequest with "no". */
const SERVER_WITHOUT_TLS = /does not support SSL/i;

function readPem(what: string, file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    throw new Error(`cannot read ${what} ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/** The TLS options of a mode that uses TLS. */
function tlsOptions(target: PostgresTarget): ConnectionOptions {
  const client: ConnectionOptions = {};
  if (target.sslCert) client.cert = readPem("sslcert", target.sslCert);
  if (target.sslKey) client.key = readPem("sslkey", target.sslKey);
  const rootFile = target.sslRootCert ?? (existsSync(LIBPQ_ROOT_CERT) ? LIBPQ_ROOT_CERT : undefined);
  const ca = rootFile && rootFile !== "system" ? { ca: readPem("sslrootcert", rootFile) } : {};
  switch (target.sslMode) {
    case "verify-full":
      // Checked against the URL's host itself: for an IP address `pg` names no server, and
      // Node would then check the certificate against "localhost".
      return { ...client, ...ca, checkServerIdentity: (_name, certificate) => checkServerIdentity(target.host, certificate) };
    case "verify-ca":
      return { ...client, ...ca, checkServerIdentity: () => undefined };
    case "require":
      // libpq: with a root certificate given, require checks the chain as verify-ca does.
      return target.sslRootCert ? { ...client, ...ca, checkServerIdentity: () => undefined } : { ...client, rejectUnauthorized: false };
    default:
      return { ...client, rejectUnauthorized: false };
  }
}

/** Whether a connection with `ssl` opens; the error when it does not. */
async function probe(connection: PgConnection, connectTimeoutMs: number): Promise<Error | null> {
  const { default: pg } = (await import(PG_MODULE)) as { default: { Client: new (config: object) => PgProbeClient } };
  const client = new pg.Client({ ...connection, connectionTimeoutMillis: connectTimeoutMs });
  client.on("error", () => {});
  try {
    await client.connect();
    return null;
  } catch (error) {
    return error as Error;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * The driver's options for `url`. Throws an Error saying why: an unreadable certificate
 * file, or, for allow and prefer, the probe's failure other than the one the mode falls back
 * on (a server that does not answer fails start-up once, within the connect bound, not twice).
 */
export async function postgresConnection(url: string, connectTimeoutMs: number): Promise<PgConnection> {
  const target = parsePostgresUrl(url);
  // libpq's default user is the system user's name (what a socket's peer authentication expects).
  const base = { host: target.host, port: target.port, user: target.user ?? userInfo().username, password: target.password, database: target.database };
  if (target.host.startsWith("/") || target.sslMode === "disable") return { ...base, ssl: false };
  const withTls: PgConnection = { ...base, ssl: tlsOptions(target) };
  if (target.sslMode === "prefer") {
    const failed = await probe(withTls, connectTimeoutMs);
    if (failed && !SERVER_WITHOUT_TLS.test(failed.message)) throw failed;
    return failed ? { ...base, ssl: false } : withTls;
  }
  if (target.sslMode === "allow") {
    const plain: PgConnection = { ...base, ssl: false };
    const failed = await probe(plain, connectTimeoutMs);
    // A server that takes only TLS refuses the plain start-up with 28000 (pg_hba.conf has no entry for it).
    if (failed && (failed as { code?: string }).code !== "28000") throw failed;
    return failed ? withTls : plain;
  }
  return withTls;
}

// A real, throwaway PostgreSQL for the suites that run on both engines (issue 25): Debian's
// `postgresql` server binaries, a fresh cluster in a temporary directory, listening on
// 127.0.0.1 on a free port (and a socket in that directory), a database per test host, and
// always stopped and removed.
//
// The server runs under a small shell watchdog in its own process group, reading this
// process's pipe: when this process ends in any way (uvu's end, a throw, the runner's SIGKILL
// of the suite's group), the pipe closes, the watchdog stops the server (fast shutdown) and
// removes the directory. `stop()` does the same on purpose and waits for it, bounded.
import { suite } from "uvu";
import { execFile, execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { promisify } from "node:util";
import { chmodSync, chownSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { scaled } from "./time-scale.ts";
import { findPostgresTool } from "../../core/internal/postgres-tools.ts";

/** The server binaries' directory: where the product's finder finds initdb (PATH, then Debian's, newest first). */
function findBinDir(): string | null {
  const initdb = findPostgresTool("initdb");
  // Debian links some binaries into /usr/local/bin; the rest (createdb) sit next to the real one.
  return initdb ? dirname(realpathSync(initdb)) : null;
}

/** Runs SQL on the database at `url` as the cluster's superuser (psql of the same installation); its rows, `|`-separated, one a line. */
export function psql(url: string, sql: string): string {
  const plain = new URL(url);
  plain.password = "";
  return execFileSync(findPostgresTool("psql")!, ["--no-psqlrc", "-At", "-v", "ON_ERROR_STOP=1", "-c", sql, plain.toString()], { encoding: "utf8", stdio: "pipe" }).trim();
}

/** PostgreSQL refuses to run as root: as root the cluster belongs to this system user. */
const SERVER_USER = "postgres";

function serverUser(): { uid: number; gid: number } | null | "missing" {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string) => spawnSync("id", [flag, SERVER_USER], { encoding: "utf8" });
  const uid = id("-u");
  const gid = id("-g");
  if (uid.status !== 0 || gid.status !== 0) return "missing";
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/**
 * Why a PostgreSQL cluster cannot be started here, or null when it can. Suites print it and
 * skip their PostgreSQL tests. `MUSTER_TEST_POSTGRES=off` skips them on purpose.
 */
export function postgresUnavailable(): string | null {
  if (process.env.MUSTER_TEST_POSTGRES === "off") return "MUSTER_TEST_POSTGRES=off";
  if (!findBinDir()) return "PostgreSQL's server binaries (initdb, postgres) are not installed: apt-get install postgresql";
  if (serverUser() === "missing") return `running as root and there is no "${SERVER_USER}" user to run PostgreSQL as (apt-get install postgresql creates it)`;
  return null;
}

export interface PostgresCluster {
  /** A new, empty database on the cluster; its `postgres://` URL. */
  createDatabase(): Promise<string>;
  /** Stops the server and removes its directory (idempotent). */
  stop(): Promise<void>;
  /** The directory of the server's Unix socket (`.s.PGSQL.<port>`), and its port. */
  socket: { dir: string; port: number };
}

/** A port nothing listens on on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Resolves when the child exits; false when it did not within `ms`. */
function exited(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

// The watchdog: starts the server, waits for its stdin to close, then fast-shuts the server
// down and removes the cluster's directory. `$1` is the directory, the rest the command.
const WATCHDOG = `dir=$1; shift; "$@" & server=$!
read -r _ || true
kill -INT "$server" 2>/dev/null; wait "$server"; rm -rf "$dir"`;

/**
 * Starts a throwaway cluster: `initdb` (trust authentication, superuser `postgres`), then the
 * server, waiting (bounded, scaled to the load) until it accepts connections. With `tls`
 * (PEM texts) the server also takes TLS connections (`ssl=on`); without, it has no TLS.
 */
export async function startPostgres(options: { tls?: { cert: string; key: string } } = {}): Promise<PostgresCluster> {
  const reason = postgresUnavailable();
  if (reason) throw new Error(`PostgreSQL unavailable: ${reason}`);
  const bin = findBinDir()!;
  const user = serverUser() as { uid: number; gid: number } | null;
  const root = mkdtempSync(join(tmpdir(), "muster-pg-"));
  const data = join(root, "data");
  // The server's user must be able to enter the directory; tmpdir entries are 0700.
  chmodSync(root, 0o755);
  if (user) chownSync(root, user.uid, user.gid);
  const asServer = user ? { uid: user.uid, gid: user.gid } : {};
  const init = spawnSync(join(bin, "initdb"), ["-D", data, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"], {
    ...asServer,
    encoding: "utf8",
    timeout: scaled(120_000),
  });
  if (init.status !== 0) {
    rmSync(root, { recursive: true, force: true });
    throw new Error(`initdb failed (${init.status ?? init.signal}): ${init.stderr || init.error?.message}`);
  }
  const port = await freePort();
  const tlsArgs: string[] = [];
  if (options.tls) {
    // The server refuses a key file others can read.
    for (const [name, text] of [["server.crt", options.tls.cert], ["server.key", options.tls.key]] as const) {
      writeFileSync(join(root, name), text, { mode: 0o600 });
      if (user) chownSync(join(root, name), user.uid, user.gid);
    }
    tlsArgs.push("-c", "ssl=on", "-c", `ssl_cert_file=${join(root, "server.crt")}`, "-c", `ssl_key_file=${join(root, "server.key")}`);
  }
  const server = spawn(
    "bash",
    ["-c", WATCHDOG, "pg-watchdog", root, join(bin, "postgres"), "-D", data, "-p", String(port), "-k", root, "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=200", ...tlsArgs],
    { ...asServer, detached: true, stdio: ["pipe", "ignore", "pipe"] },
  );
  let log = "";
  const ready = new Promise<void>((resolve, reject) => {
    server.stderr!.on("data", (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes("database system is ready to accept connections")) resolve();
    });
    server.once("exit", (code, signal) => reject(new Error(`postgres exited before it was ready (${code ?? signal}):\n${log}`)));
  });
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      process.off("exit", onExit);
      server.stdin!.end();
      if (!(await exited(server, scaled(60_000)))) {
        try {
          process.kill(-server.pid!, "SIGKILL");
        } catch { /* gone */ }
      }
      rmSync(root, { recursive: true, force: true });
    })());
  // The pipe closes by itself when this process ends; ending it here makes the watchdog act at once.
  const onExit = () => server.stdin!.end();
  process.on("exit", onExit);
  const bound = scaled(120_000);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`postgres was not ready within ${bound} ms:\n${log}`)), bound)));
  try {
    await Promise.race([ready, timeout]);
  } catch (error) {
    await stop();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  // Once ready, nothing of it keeps the suite alive: the watchdog outlives it by design.
  server.unref();
  (server.stdin as unknown as { unref(): void }).unref();
  (server.stderr as unknown as { unref(): void }).unref();
  let next = 0;
  const url = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  return {
    async createDatabase() {
      const name = `muster_${process.pid}_${++next}`;
      await promisify(execFile)(join(bin, "createdb"), ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", name], { timeout: scaled(60_000) });
      return url(name);
    },
    stop,
    socket: { dir: root, port },
  };
}

/**
 * A suite on one throwaway cluster for its file: `test` skips, saying why, where the server
 * binaries are missing; `database()` makes a fresh database (its URL), the cluster started on
 * the first call; the cluster is stopped after the suite.
 */
export function postgresSuite(name: string) {
  const t = suite(name);
  const unavailable = postgresUnavailable();
  if (unavailable) console.log(`${name}: skipped, ${unavailable}`);
  let cluster: PostgresCluster | undefined;
  const database = async () => (cluster ??= await startPostgres()).createDatabase();
  /** The cluster's socket (the cluster started if it was not). */
  const socket = async () => (cluster ??= await startPostgres()).socket;
  t.after(async () => {
    await cluster?.stop();
  });
  return { t, test: unavailable ? t.skip : t, database, socket };
}

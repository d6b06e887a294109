// DATABASE_URL read as libpq reads it (issue 25; core/internal/postgres-url.ts and
// postgres-connection.ts): a Unix socket directory as the host, in the `host` parameter or
// percent-encoded in the authority, and `sslmode` mapped to the driver's TLS options. Real
// hosts on a real, throwaway cluster (which listens on 127.0.0.1 without TLS, and on a socket
// in its directory; one cluster of its own takes TLS with a test CA's certificate for
// `localhost`); skipped, with the reason printed, where PostgreSQL's binaries are missing.
import * as assert from "uvu/assert";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { settingsPlugin } from "../../plugins/settings/index.ts";
import { startTestHost, withTestHost } from "../helpers/start-test-host.ts";
import { postgresSuite, psql, startPostgres } from "../helpers/postgres-cluster.ts";

const { t, test, database, socket } = postgresSuite("DATABASE_URL's socket host and sslmode");

/** How a start with `url` ends: null when the host started (it is stopped again), else its error. */
async function startError(url: string): Promise<(Error & { code?: string }) | null> {
  return startTestHost({ plugins: [settingsPlugin], env: { DATABASE_URL: url } }).then(
    async (h) => {
      await h.stop();
      return null;
    },
    (e: Error & { code?: string }) => e,
  );
}

/** A host on `url` answers with the database ok and writes and reads a setting there. */
async function servesOn(url: string, value: string): Promise<void> {
  await withTestHost({ plugins: [settingsPlugin], env: { DATABASE_URL: url } }, async (h) => {
    const health = await h.json("/api/health");
    assert.is(health.body.database, "ok", JSON.stringify(health.body));
    const put = await h.json("/api/settings/theme", { method: "PUT", body: { value } });
    assert.is(put.status, 200, JSON.stringify(put.body));
    assert.is((await h.json("/api/settings")).body.settings.theme, value);
  });
}

/** The database's name in a URL `database()` made. */
const nameOf = (url: string) => new URL(url).pathname.slice(1);

test("a Unix socket directory as the host: in the host parameter (with an empty host, or none) and percent-encoded in the authority", async () => {
  const name = nameOf(await database());
  const { dir, port } = await socket();
  // Nothing in these URLs names an address: only the socket can serve them.
  await servesOn(`postgres://postgres@/${name}?host=${encodeURIComponent(dir)}&port=${port}`, "dark");
  await servesOn(`postgresql:///${name}?host=${dir}&port=${port}&user=postgres`, "light");
  await servesOn(`postgres://postgres@${encodeURIComponent(dir)}:${port}/${name}`, "sepia");
  // The three wrote one database: a host over TCP reads the last value.
  await withTestHost({ plugins: [settingsPlugin], env: { DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/${name}` } }, async (h) => {
    assert.is((await h.json("/api/settings")).body.settings.theme, "sepia");
  });
});

test("sslmode: disable connects without TLS; prefer (libpq's default) falls back to it on a server without TLS; require there stops start-up with DATABASE_UNREACHABLE", async () => {
  const url = await database();
  await servesOn(`${url}?sslmode=disable`, "dark");
  await servesOn(`${url}?sslmode=prefer`, "light");
  await servesOn(`${url}?sslmode=allow`, "sepia");
  const error = await startError(`${url.replace("postgres@", "postgres:secret-password@")}?sslmode=require`);
  assert.ok(error, "the host started without the TLS it required");
  assert.is(error.code, "DATABASE_UNREACHABLE", error.message);
  assert.match(error.message, /SSL/);
  assert.not.match(error.message, /secret-password/);
});

/** A test CA and a server certificate it signed for `localhost` only (openssl), in `dir`. */
function testCertificates(dir: string): { caFile: string; cert: string; key: string } {
  const at = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
  openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt", "-days", "2", "-subj", "/CN=Muster test CA");
  openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost");
  writeFileSync(at("san.ext"), "subjectAltName=DNS:localhost\n");
  openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-out", "server.crt", "-days", "2", "-extfile", "san.ext");
  return { caFile: at("ca.crt"), cert: readFileSync(at("server.crt"), "utf8"), key: readFileSync(at("server.key"), "utf8") };
}

test("sslmode against a server with TLS: prefer and require use it, disable does not; verify-ca checks the chain, verify-full the host name too", async () => {
  const dir = mkdtempSync(join(tmpdir(), "muster-pg-tls-"));
  const { caFile, cert, key } = testCertificates(dir);
  const cluster = await startPostgres({ tls: { cert, key } });
  try {
    const url = await cluster.createDatabase();
    const name = nameOf(url);
    /** Of the host's connections to the database, how many use TLS, and how many there are (the server's own view). */
    const tlsOf = (dbUrl: string) =>
      withTestHost({ plugins: [settingsPlugin], env: { DATABASE_URL: dbUrl } }, async (h) => {
        assert.is((await h.json("/api/settings")).status, 200);
        const [withTls, all] = psql(url, `SELECT count(*) FILTER (WHERE s.ssl), count(*) FROM pg_stat_activity a JOIN pg_stat_ssl s USING (pid) WHERE a.datname = '${name}' AND a.pid <> pg_backend_pid()`).split("|").map(Number);
        assert.ok(all! > 0, "no connection of the host");
        return withTls === all ? "tls" : withTls === 0 ? "plain" : "mixed";
      });
    const root = `sslrootcert=${encodeURIComponent(caFile)}`;
    assert.is(await tlsOf(`${url}?sslmode=prefer`), "tls");
    assert.is(await tlsOf(`${url}?sslmode=require`), "tls");
    assert.is(await tlsOf(`${url}?sslmode=disable`), "plain");
    assert.is(await tlsOf(`${url}?sslmode=allow`), "plain");
    // The certificate names localhost, not 127.0.0.1: verify-ca does not check the name, verify-full does.
    assert.is(await tlsOf(`${url}?sslmode=verify-ca&${root}`), "tls");
    assert.is(await tlsOf(`${url.replace("127.0.0.1", "localhost")}?sslmode=verify-full&${root}`), "tls");
    const wrongName = await startError(`${url}?sslmode=verify-full&${root}`);
    assert.is(wrongName?.code, "DATABASE_UNREACHABLE", wrongName?.message);
    assert.match(wrongName!.message, /127\.0\.0\.1/);
    // Without the test CA the chain is not trusted (the system's roots do not have it).
    const untrusted = await startError(`${url}?sslmode=verify-ca`);
    assert.is(untrusted?.code, "DATABASE_UNREACHABLE", untrusted?.message);
    const missing = await startError(`${url}?sslmode=verify-ca&sslrootcert=${encodeURIComponent(join(dir, "none.crt"))}`);
    assert.is(missing?.code, "DATABASE_UNREACHABLE", missing?.message);
    assert.match(missing!.message, /cannot read sslrootcert .*none\.crt: ENOENT/);
  } finally {
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

t("an unknown sslmode stops start-up with CONFIG_INVALID naming DATABASE_URL and the modes libpq knows", async () => {
  const error = await startError("postgres://muster:secret-password@127.0.0.1:5432/muster?sslmode=required");
  assert.ok(error, "the host started");
  assert.is(error.code, "CONFIG_INVALID", error.message);
  assert.match(error.message, /DATABASE_URL/);
  assert.match(error.message, /sslmode "required" is not one of disable, allow, prefer, require, verify-ca, verify-full/);
  assert.not.match(error.message, /secret-password/);
});

t("a DATABASE_URL without a host or a database stops start-up with CONFIG_INVALID saying which", async () => {
  const noHost = await startError("postgres:///muster");
  assert.is(noHost?.code, "CONFIG_INVALID");
  assert.match(noHost!.message, /names no host/);
  const noDatabase = await startError("postgres://127.0.0.1:5432/");
  assert.is(noDatabase?.code, "CONFIG_INVALID");
  assert.match(noDatabase!.message, /names no database/);
});

t.run();

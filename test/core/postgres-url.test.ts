// DATABASE_URL read as libpq reads it (issue 25; core/internal/postgres-url.ts and
// postgres-connection.ts): a Unix socket directory as the host, in the `host` parameter or
// percent-encoded in the authority, and `sslmode` mapped to the driver's TLS options. Real
// hosts on a real, throwaway cluster (which listens on 127.0.0.1 without TLS, and on a socket
// in its directory); skipped, with the reason printed, where PostgreSQL's binaries are missing.
import * as assert from "uvu/assert";
import { settingsPlugin } from "../../plugins/settings/index.ts";
import { startTestHost, withTestHost } from "../helpers/start-test-host.ts";
import { postgresSuite } from "../helpers/postgres-cluster.ts";

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

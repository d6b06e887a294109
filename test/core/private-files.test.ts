// MUSTER_HOME is 0700 and the session token and database files 0600, also when they
// already existed with looser modes (issue 8 item 6).
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestHost, removeHome, withTestHost } from "../helpers/start-test-host.ts";

const t = suite("private files");

const mode = (path: string) => statSync(path).mode & 0o777;
const privateFiles = (home: string) => ["session-token", "muster.db", "muster.db-wal", "muster.db-shm"].map((f) => join(home, f));

t("a new home is 0700 and its token and database files 0600", async () => {
  const parent = mkdtempSync(join(tmpdir(), "muster-perm-"));
  const home = join(parent, "home");
  const h = await startTestHost({ home, workspace: join(parent, "ws") });
  try {
    assert.is(mode(home), 0o700);
    for (const file of privateFiles(home)) {
      assert.ok(existsSync(file), `${file} exists while the server runs`);
      assert.is(mode(file), 0o600, file);
    }
  } finally {
    await h.stop();
    removeHome(parent);
  }
});

t("an existing home and files with loose modes are tightened at start", async () => {
  const parent = mkdtempSync(join(tmpdir(), "muster-perm-"));
  const home = join(parent, "home");
  const workspace = join(parent, "ws");
  await withTestHost({ home, workspace }, (first) => first.json("/api/tasks", { method: "POST", body: { title: "survives" } }));
  try {
    chmodSync(home, 0o755);
    for (const file of privateFiles(home)) {
      if (!existsSync(file)) writeFileSync(file, ""); // an empty -wal/-shm left behind is valid
      chmodSync(file, 0o644);
    }
    mkdirSync(join(home, "plugins"), { recursive: true });
    await withTestHost({ home, workspace }, async (h) => {
      assert.is(mode(home), 0o700);
      for (const file of privateFiles(home)) assert.is(mode(file), 0o600, file);
      assert.equal((await h.json("/api/tasks")).body.map((x: { title: string }) => x.title), ["survives"], "the database still opens");
    });
  } finally {
    removeHome(parent);
  }
});

t.run();

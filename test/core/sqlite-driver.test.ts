import { suite } from "uvu";
import * as assert from "uvu/assert";
import Database from "better-sqlite3";
import { statementCachingView } from "../../core/internal/sqlite-driver.ts";

const t = suite("the ORM's statement cache");

t("one SQL text gets one prepared statement, reused", () => {
  const db = new Database(":memory:");
  const view = statementCachingView(db);
  const first = view.prepare("SELECT 1 AS one");
  assert.is(view.prepare("SELECT 1 AS one"), first);
  assert.is.not(view.prepare("SELECT 2 AS two"), first);
  assert.equal(first.all(), [{ one: 1 }]);
  db.close();
});

t("a statement busy in iterate() is not handed out again: a fresh one is prepared", () => {
  const db = new Database(":memory:");
  db.exec("CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (1), (2), (3)");
  const view = statementCachingView(db);
  const sql = "SELECT n FROM t ORDER BY n";
  const iterating = view.prepare(sql);
  const rows = iterating.iterate();
  rows.next();
  const other = view.prepare(sql);
  assert.is.not(other, iterating);
  assert.equal(other.all(), [{ n: 1 }, { n: 2 }, { n: 3 }], "the fresh statement runs while the first one iterates");
  rows.return?.();
  db.close();
});

t("the least recently used statements go first when the cache is full", () => {
  const db = new Database(":memory:");
  const view = statementCachingView(db, 2);
  const a = view.prepare("SELECT 'a'");
  const b = view.prepare("SELECT 'b'");
  assert.is(view.prepare("SELECT 'a'"), a, "a is used again, so b is now the oldest");
  view.prepare("SELECT 'c'");
  assert.is(view.prepare("SELECT 'a'"), a, "a stayed");
  assert.is.not(view.prepare("SELECT 'b'"), b, "b was evicted and prepared anew");
  db.close();
});

t("raw statements prepared on the database itself are not shared with the view", () => {
  const db = new Database(":memory:");
  const view = statementCachingView(db);
  const raw = db.prepare("SELECT 7 AS seven").pluck();
  assert.is(raw.get(), 7);
  assert.equal(view.prepare("SELECT 7 AS seven").get(), { seven: 7 }, "a pluck() on a raw statement does not change what the ORM reads");
  db.close();
});

t("writes are not cached: their values are inline, so their text is new every time", () => {
  const db = new Database(":memory:");
  db.exec("CREATE TABLE t (n INTEGER)");
  const view = statementCachingView(db);
  const insert = view.prepare("INSERT INTO t VALUES (1)");
  assert.is.not(view.prepare("INSERT INTO t VALUES (1)"), insert);
  db.close();
});

t.run();

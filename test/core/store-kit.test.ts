// The store kit (`defineStore`) through a real host: a test plugin owns one table, declares a
// store over its entity and serves it over HTTP; every assertion goes through those routes.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import {
  atomically,
  defineEntity,
  defineErrors,
  defineMigration,
  defineRoutes,
  definePlugin,
  defineService,
  defineStore,
  hostTokens,
  insertionOrder,
  p,
  preparedStatement,
  token,
  z,
  type Database,
  type EntityRow,
  type EntityStore,
} from "@muster/plugin";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { builtInPlugins } from "../../plugins/built-in.ts";
import { startTestHost, type TestHost } from "../helpers/start-test-host.ts";
import { postgresUnavailable, startPostgres, type PostgresCluster } from "../helpers/postgres-cluster.ts";
import type { Answer } from "@muster/plugin/testing";

const Note = defineEntity({
  name: "KitNote",
  tableName: "kit_notes_notes",
  properties: {
    id: p.string().primary(),
    title: p.string(),
    status: p.enum(["draft", "published"]).default("draft"),
    pinned: p.boolean().default(0),
    body: p.text().nullable(),
    createdAt: p.string(),
  },
});
type NoteRow = EntityRow<typeof Note>;

/** Newest first; notes created in the same millisecond in reverse insertion order. */
const notes = defineStore(Note, { orderBy: [{ createdAt: "desc" }, insertionOrder("desc")] });

/** The kit's prepared statements: a `?` inside a literal is text, not a parameter; a boolean parameter binds on both engines. */
const PINNED_TITLES = preparedStatement<{ id: string; mark: string }>(`SELECT id, '?' AS mark FROM kit_notes_notes WHERE pinned = ? AND title <> ? ORDER BY id`);
const RETITLE = preparedStatement(`UPDATE kit_notes_notes SET title = ? WHERE title = ?`);

const errors = defineErrors({
  KIT_NOTES_NOT_FOUND: { status: 404, message: "No note {id}" },
  KIT_NOTES_TAKEN: { status: 409, message: "Note {id} exists" },
  KIT_NOTES_NOT_DRAFT: { status: 409, message: "Note {id} is not a draft" },
});

const NOTES = token<EntityStore<typeof Note>>("kit-notes.store");
const KIT_DB = token<() => Database>("kit-notes.db");

const kitNotesPlugin = definePlugin({
  id: "kit-notes",
  version: "1.0.0",
  host: "^1.0.0",
  paths: ["/api/kit-notes"],
  entities: [Note],
  migrations: [
    defineMigration({
      name: "001-notes",
      up: `CREATE TABLE kit_notes_notes (id TEXT PRIMARY KEY, title TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'draft', pinned INTEGER NOT NULL DEFAULT 0, body TEXT, createdAt TEXT NOT NULL)`,
    }),
  ],
  register(ctx) {
    ctx.provide(defineService({ token: NOTES, deps: { db: hostTokens.db }, create: ({ db }) => notes.on(() => db as Database) }));
    ctx.provide(defineService({ token: KIT_DB, deps: { db: hostTokens.db }, create: ({ db }) => () => db as Database }));
  },
  routes: defineRoutes({
    deps: { store: NOTES, db: KIT_DB },
    mount(router, { store, db }) {
      const idParams = z.object({ id: z.string() });
      const found = (row: NoteRow | null, id: string) => {
        if (!row) throw errors.KIT_NOTES_NOT_FOUND({ id });
        return { ok: true, note: row };
      };
      router.post(
        "/api/kit-notes",
        { summary: "Create", status: 201, body: z.object({ id: z.string(), title: z.string(), pinned: z.boolean().optional(), createdAt: z.string() }) },
        async ({ body }) => {
          try {
            await store.insert(body);
          } catch (error) {
            if ((error as Error).name === "UniqueConstraintViolationException") throw errors.KIT_NOTES_TAKEN({ id: body.id });
            throw error;
          }
          return found(await store.get(body.id), body.id);
        },
      );
      router.post("/api/kit-notes/bulk", { summary: "Create several", status: 201, body: z.object({ notes: z.array(z.object({ id: z.string(), title: z.string(), createdAt: z.string() })) }) }, async ({ body }) => {
        await store.insert(body.notes);
        return { ok: true };
      });
      router.get(
        "/api/kit-notes",
        {
          summary: "List",
          query: z.object({
            status: z.enum(["draft", "published"]).optional(),
            limit: z.coerce.number().int().optional(),
            offset: z.coerce.number().int().optional(),
            titles: z.literal("1").optional(),
            oldest: z.literal("1").optional(),
          }),
        },
        async ({ query }) => {
          const where = query.status ? { status: query.status } : undefined;
          const orderBy = query.oldest ? [{ createdAt: "asc" as const }, insertionOrder("asc")] : undefined;
          const rows = query.titles
            ? await store.list({ where, limit: query.limit, offset: query.offset, orderBy, fields: ["id", "title"] })
            : await store.list({ where, limit: query.limit, offset: query.offset, orderBy });
          return { ok: true, notes: rows, total: await store.count(where) };
        },
      );
      // Two notes in one atomic step; `fail` throws between the inserts, which must roll the first back.
      router.post("/api/kit-notes/pair", { summary: "Create two at once", status: 201, body: z.object({ ids: z.tuple([z.string(), z.string()]), fail: z.boolean() }) }, async ({ body }) => {
        const insert = `INSERT INTO kit_notes_notes (id, title, pinned, "createdAt") VALUES (?, ?, ?, ?)`;
        const inserted = await atomically(db(), function* (tx) {
          const first = yield* tx.run(insert, [body.ids[0], "pair", true, "2026-02-01T00:00:00.000Z"]);
          if (body.fail) throw errors.KIT_NOTES_TAKEN({ id: body.ids[1] });
          const second = yield* tx.run(insert, [body.ids[1], "pair", false, "2026-02-01T00:00:00.000Z"]);
          return first.changes + second.changes;
        });
        return { ok: true, inserted };
      });
      router.get("/api/kit-notes/prepared", { summary: "Pinned or not, by a prepared statement", query: z.object({ pinned: z.enum(["0", "1"]) }) }, async ({ query }) => ({
        ok: true,
        notes: await PINNED_TITLES.all(db(), [query.pinned === "1", "no such title"]),
      }));
      router.post("/api/kit-notes/prepared-retitle", { summary: "Rename by a prepared statement", body: z.object({ from: z.string(), to: z.string() }) }, async ({ body }) => ({
        ok: true,
        ...(await RETITLE.run(db(), [body.to, body.from])),
      }));
      router.get("/api/kit-notes/first-draft", { summary: "The newest draft" }, async () => ({ ok: true, note: await store.find({ status: "draft" }) }));
      router.get("/api/kit-notes/:id", { summary: "One", params: idParams }, async ({ params }) => found(await store.get(params.id), params.id));
      router.patch("/api/kit-notes/:id", { summary: "Change", params: idParams, body: z.object({ title: z.string().optional(), pinned: z.boolean().optional() }) }, async ({ params, body }) => {
        if (!(await store.update(params.id, body))) throw errors.KIT_NOTES_NOT_FOUND({ id: params.id });
        return found(await store.get(params.id), params.id);
      });
      router.delete("/api/kit-notes/:id", { summary: "Delete", params: idParams }, async ({ params }) => {
        if (!(await store.delete(params.id))) throw errors.KIT_NOTES_NOT_FOUND({ id: params.id });
        return { ok: true };
      });
      router.post("/api/kit-notes/:id/publish", { summary: "Publish a draft once", params: idParams, body: z.object({ body: z.string() }) }, async ({ params, body }) => {
        const row = await store.transition(params.id, { from: { status: "draft" }, set: { status: "published", body: body.body } });
        if (!row) throw errors.KIT_NOTES_NOT_DRAFT({ id: params.id });
        return { ok: true, note: row };
      });
    },
  }),
});

/**
 * The kit's behaviour as a suite: on the embedded SQLite, and on PostgreSQL (team mode,
 * `env` with a DATABASE_URL of a throwaway cluster). The same assertions hold on both: on
 * PostgreSQL ties break by the key, which these notes' ids follow in insertion order.
 */
function storeKitSuite(name: string, env?: () => Promise<Record<string, string>>) {
const t = suite(name);
let h: TestHost;
t.before(async () => {
  h = await startTestHost({ plugins: [], extraPlugins: [kitNotesPlugin], env: env ? await env() : undefined });
});
t.after(async () => h?.stop());

// The kit-notes routes belong to this suite's own plugin, not the OpenAPI the SDK is generated from.
type NoteAnswer = Answer<{ note: NoteRow }>;
type NotesAnswer = Answer<{ notes: Partial<NoteRow>[]; total: number }>;

const create = (id: string, createdAt: string, extra: Record<string, unknown> = {}) => h.json<NoteAnswer>("/api/kit-notes", { session: true, method: "POST", body: { id, title: `title ${id}`, createdAt, ...extra } });

t("insert then get returns the plain row: defaults filled, booleans as booleans, nullable columns as null", async () => {
  const res = await create("a", "2026-01-01T00:00:00.000Z", { pinned: true });
  assert.is(res.status, 201, JSON.stringify(res.body));
  assert.equal(res.body.note, { id: "a", title: "title a", status: "draft", pinned: true, body: null, createdAt: "2026-01-01T00:00:00.000Z" });
  assert.is((await h.json<NoteAnswer>("/api/kit-notes/a")).body.note.pinned, true);
});

t("a taken key fails the insert with MikroORM's unique-constraint exception", async () => {
  const res = await create("a", "2026-01-02T00:00:00.000Z");
  assert.is(res.status, 409);
  assert.is(res.body.error!.code, "KIT_NOTES_TAKEN");
});

t("get of an unknown key is null", async () => {
  const res = await h.json<NoteAnswer>("/api/kit-notes/nope");
  assert.is(res.status, 404);
  assert.is(res.body.error!.code, "KIT_NOTES_NOT_FOUND");
});

t("several rows insert in one call; list uses the default order with insertion order breaking ties", async () => {
  const same = "2026-01-03T00:00:00.000Z";
  assert.is((await h.json("/api/kit-notes/bulk", { session: true, method: "POST", body: { notes: ["b", "c", "d"].map((id) => ({ id, title: `title ${id}`, createdAt: same })) } })).status, 201);
  const { body } = await h.json<NotesAnswer>("/api/kit-notes");
  assert.equal(
    body.notes.map((n) => n.id),
    ["d", "c", "b", "a"],
  );
  assert.is(body.total, 4);
  const oldest = (await h.json<NotesAnswer>("/api/kit-notes?oldest=1")).body.notes.map((n) => n.id);
  assert.equal(oldest, ["a", "b", "c", "d"]);
});

t("a prepared statement reads and writes on the engine: `?` placeholders, a boolean parameter, a literal `?` kept; re-run with new values", async () => {
  const ids = async (pinned: "0" | "1") => (await h.json<Answer<{ notes: { id: string; mark: string }[] }>>(`/api/kit-notes/prepared?pinned=${pinned}`)).body.notes;
  assert.equal(await ids("1"), [{ id: "a", mark: "?" }]);
  assert.equal((await ids("0")).map((n) => n.id), ["b", "c", "d"]);
  const retitle = (from: string, to: string) => h.json<Answer<{ changes: number }>>("/api/kit-notes/prepared-retitle", { session: true, method: "POST", body: { from, to } });
  assert.is((await retitle("title b", "renamed b")).body.changes, 1);
  assert.is((await retitle("title b", "renamed again")).body.changes, 0, "nothing matches any more");
  assert.is((await h.json<NoteAnswer>("/api/kit-notes/b")).body.note.title, "renamed b");
  assert.is((await retitle("renamed b", "title b")).body.changes, 1);
});

t("pages by limit and offset, an offset alone included; fields narrow the row", async () => {
  assert.equal((await h.json<NotesAnswer>("/api/kit-notes?limit=2&offset=1")).body.notes.map((n) => n.id), ["c", "b"]);
  assert.equal((await h.json<NotesAnswer>("/api/kit-notes?offset=3")).body.notes.map((n) => n.id), ["a"]);
  assert.equal((await h.json<NotesAnswer>("/api/kit-notes?offset=9")).body.notes, []);
  assert.equal((await h.json<NotesAnswer>("/api/kit-notes?limit=1&titles=1")).body.notes, [{ id: "d", title: "title d" }]);
});

t("update changes one row and says whether there was one; delete likewise", async () => {
  const changed = await h.json<NoteAnswer>("/api/kit-notes/b", { session: true, method: "PATCH", body: { title: "renamed", pinned: true } });
  assert.is(changed.status, 200);
  assert.is(changed.body.note.title, "renamed");
  assert.is(changed.body.note.pinned, true);
  assert.is((await h.json("/api/kit-notes/zz", { session: true, method: "PATCH", body: { title: "x" } })).status, 404);
  assert.is((await h.json("/api/kit-notes/c", { session: true, method: "DELETE" })).status, 200);
  assert.is((await h.json("/api/kit-notes/c", { session: true, method: "DELETE" })).status, 404);
  assert.is((await h.json<NotesAnswer>("/api/kit-notes")).body.total, 3);
});

t("transition: of 20 concurrent publishes of one draft exactly one wins and gets the changed row", async () => {
  const results = await Promise.all(Array.from({ length: 20 }, (_, i) => h.json<NoteAnswer>("/api/kit-notes/d/publish", { session: true, method: "POST", body: { body: `by ${i}` } })));
  const winners = results.filter((r) => r.status === 200);
  assert.is(winners.length, 1);
  assert.is(winners[0]!.body.note.status, "published");
  assert.match(winners[0]!.body.note.body ?? "", /^by \d+$/);
  for (const loser of results.filter((r) => r.status !== 200)) assert.is(loser.body.error!.code, "KIT_NOTES_NOT_DRAFT");
  assert.equal((await h.json<NoteAnswer>("/api/kit-notes/d")).body.note.body, winners[0]!.body.note.body);
  assert.is((await h.json("/api/kit-notes/nope/publish", { session: true, method: "POST", body: { body: "x" } })).status, 409);
});

t("count and list filter by where; find returns the first match in the store's order", async () => {
  const drafts = (await h.json<NotesAnswer>("/api/kit-notes?status=draft")).body;
  assert.equal(drafts.notes.map((n) => n.id), ["b", "a"]);
  assert.is(drafts.total, 2);
  assert.is((await h.json<NotesAnswer>("/api/kit-notes?status=published")).body.total, 1);
  assert.is((await h.json<NoteAnswer>("/api/kit-notes/first-draft")).body.note.id, "b");
});

t("atomically: its statements commit together, and a throw between them rolls them all back", async () => {
  const pair = (ids: [string, string], fail: boolean) => h.json<Answer<{ inserted: number }>>("/api/kit-notes/pair", { session: true, method: "POST", body: { ids, fail } });
  const failed = await pair(["p1", "p2"], true);
  assert.is(failed.status, 409, JSON.stringify(failed.body));
  assert.is((await h.json("/api/kit-notes/p1")).status, 404, "the first insert was rolled back");
  const done = await pair(["p1", "p2"], false);
  assert.is(done.status, 201, JSON.stringify(done.body));
  assert.is(done.body.inserted, 2);
  // Boolean parameters bind on both engines and read back through the kit as booleans.
  assert.equal([(await h.json<NoteAnswer>("/api/kit-notes/p1")).body.note.pinned, (await h.json<NoteAnswer>("/api/kit-notes/p2")).body.note.pinned], [true, false]);
});

return t;
}

const t = storeKitSuite("store kit");

t("every built-in plugin that owns tables stores them through the kit (docs/store-kit.md)", () => {
  const root = new URL("../../plugins/", import.meta.url).pathname;
  const sources = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []));
  const owners = builtInPlugins.filter((plugin) => (plugin.entities ?? []).length > 0).map((plugin) => plugin.id);
  assert.ok(owners.length >= 19, `${owners.length} table-owning plugins`);
  const without = owners.filter((id) => !sources(join(root, id, "services")).some((file) => readFileSync(file, "utf8").includes("defineStore(")));
  assert.equal(without, []);
});

t.run();

// The same suite on PostgreSQL; skipped, with the reason printed, without its server binaries.
const unavailable = postgresUnavailable();
if (unavailable) console.log(`store kit on PostgreSQL: skipped, ${unavailable}`);
let cluster: PostgresCluster | undefined;
const onPostgres = storeKitSuite("store kit on PostgreSQL", async () => ({ DATABASE_URL: await (cluster ??= await startPostgres()).createDatabase() }));
onPostgres.after(async () => {
  await cluster?.stop();
});
if (unavailable) {
  const skipped = suite("store kit on PostgreSQL");
  skipped.skip("every store-kit test", () => {});
  skipped.run();
} else onPostgres.run();

// release-notes.ts: a whole plugin in one file (split it into files as examples/muster-plugin-release-notes does)
import { configToken, defineEntity, defineErrors, defineHook, defineMigration, definePlugin, defineRoutes, hostTokens, p, z } from "@muster/plugin";

// Its section of muster.config.json ({ "config": { "release-notes": { "maxNotes": 100 } } }), defaults applied.
const config = z.strictObject({ maxNotes: z.number().int().min(1).default(50) });
type Config = z.output<typeof config>;

// Tables and indexes carry the prefix release_notes_ (the id with - turned into _); the host refuses others.
const Note = defineEntity({
  name: "Note",
  tableName: "release_notes_notes",
  properties: { id: p.integer().primary().autoincrement(), text: p.string(), author: p.string().nullable() },
});
const migrations = [
  defineMigration({ name: "001-notes", up: "CREATE TABLE release_notes_notes (id INTEGER PRIMARY KEY AUTOINCREMENT, text TEXT NOT NULL, author TEXT)" }),
];

// Codes carry the id's prefix (RELEASE_NOTES_); the kit refuses others.
const errors = defineErrors("release-notes", {
  RELEASE_NOTES_FULL: { status: 409, message: "The release notes already hold {max} notes" },
});

// Routes declare what they use, like services; the host resolves it all at boot, so a
// missing dependency stops the start instead of failing the first request.
const routes = defineRoutes({
  deps: { db: hostTokens.db, config: configToken<Config>() },
  mount: (router, { db, config }) => router.post("/api/release-notes", {
    summary: "Add a note",                                        // becomes the OpenAPI summary
    body: z.strictObject({ text: z.string().min(1).max(2000) }), // unknown fields → 400 VALIDATION_FAILED
    status: 201,
  }, ({ body, agentId }) => {
    // The cap and the insert are one statement, so concurrent adds cannot overshoot it.
    // (db.sql is SQLite's own connection; a step that must also run on PostgreSQL, team mode,
    // is written once with `atomically`: docs/store-kit.md.)
    const added = db.sql
      .prepare("INSERT INTO release_notes_notes (text, author) SELECT ?, ? WHERE (SELECT count(*) FROM release_notes_notes) < ?")
      .run(body.text, agentId, config.maxNotes);
    if (added.changes === 0) throw errors.RELEASE_NOTES_FULL({ max: config.maxNotes });
    return { ok: true, note: { id: Number(added.lastInsertRowid), text: body.text, author: agentId } };
  }),
});

export default definePlugin({
  id: "release-notes",           // kebab-case: tables release_notes_*, error codes RELEASE_NOTES_*, log field plugin=release-notes
  version: "0.1.0",
  host: "^1.0.0",                // the plugin-API range it was built for
  dependsOn: ["activities"],     // started before this one; missing → start-up refused
  paths: ["/api/release-notes"], // route prefixes it owns; overlaps with other plugins are refused
  config,                        // configToken<Config>() in deps gives it, validated and frozen
  entities: [Note],
  migrations,
  routes,
  onStart: defineHook({
    deps: { logger: hostTokens.logger, config: configToken<Config>() },
    run: ({ logger, config }) => logger.info({ maxNotes: config.maxNotes }, "release notes ready"),
  }),
});

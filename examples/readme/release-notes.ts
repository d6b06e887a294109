// release-notes.ts: a whole plugin in one file (split it into files as examples/muster-plugin-release-notes does)
import { definePlugin, defineEntity, defineErrors, defineMigration, p, z, type PluginContext, type PluginRouter } from "@muster/plugin";

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

const errors = defineErrors({
  RELEASE_NOTES_FULL: { status: 409, message: "The release notes already hold {max} notes" },
});

function mountRoutes(router: PluginRouter, ctx: PluginContext<Config>): void {
  router.post("/api/release-notes", {
    summary: "Add a note",                                        // becomes the OpenAPI summary
    body: z.strictObject({ text: z.string().min(1).max(2000) }), // unknown fields → 400 VALIDATION_FAILED
    status: 201,
  }, ({ body, agentId }) => {
    // The cap and the insert are one statement, so concurrent adds cannot overshoot it.
    const added = ctx.db.sql
      .prepare("INSERT INTO release_notes_notes (text, author) SELECT ?, ? WHERE (SELECT count(*) FROM release_notes_notes) < ?")
      .run(body.text, agentId, ctx.config.maxNotes);
    if (added.changes === 0) throw errors.RELEASE_NOTES_FULL({ max: ctx.config.maxNotes });
    return { ok: true, note: { id: Number(added.lastInsertRowid), text: body.text, author: agentId } };
  });
}

export default definePlugin({
  id: "release-notes",           // kebab-case: tables release_notes_*, error codes RELEASE_NOTES_*, log field plugin=release-notes
  version: "0.1.0",
  host: "^1.0.0",                // the plugin-API range it was built for
  dependsOn: ["activities"],     // started before this one; missing → start-up refused
  paths: ["/api/release-notes"], // route prefixes it owns; overlaps with other plugins are refused
  config,                        // ctx.config is typed from it
  entities: [Note],
  migrations,
  routes: mountRoutes,
  onStart(ctx) {
    ctx.logger.info({ maxNotes: ctx.config.maxNotes }, "release notes ready");
  },
});

import { definePlugin } from "@muster/plugin";
import { releaseNotesConfig } from "./config.ts";
import { ReleaseNote } from "./entities/release-note.ts";
import { migrations } from "./migrations.ts";
import { releaseNoteRoutes } from "./http/routes.ts";

/**
 * Release notes kept in Muster's database (`/api/release-notes`): agents add a note per
 * version, humans and agents list them. A complete third-party plugin: a config schema,
 * an entity and its migration, routes with zod schemas, an error catalogue.
 */
export default definePlugin({
  id: "release-notes",
  version: "0.1.0",
  host: "^1.0.0",
  paths: ["/api/release-notes"],
  // Its section of muster.config.json (`"release-notes": { "maxNotes": 500 }`); routes read it as configToken<ReleaseNotesConfig>() in their deps.
  config: releaseNotesConfig,
  // Tables carry the plugin's prefix, release_notes_ (the id with - turned into _).
  entities: [ReleaseNote],
  migrations,
  routes: releaseNoteRoutes,
});

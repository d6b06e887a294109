import { defineEntity, p } from "@muster/plugin";

/** One release note; its table carries the plugin's prefix (release_notes_). */
export const ReleaseNote = defineEntity({
  name: "ReleaseNote",
  tableName: "release_notes_notes",
  properties: {
    id: p.integer().primary().autoincrement(),
    version: p.string(),
    text: p.string(),
    author: p.string().nullable(),
    createdAt: p.string(),
  },
});

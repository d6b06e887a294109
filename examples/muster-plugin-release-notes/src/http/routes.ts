import { configToken, defineRoutes, hostTokens } from "@muster/plugin";
import type { ReleaseNotesConfig } from "../config.ts";
import { NoteStore } from "../services/note-store.ts";
import { listQuery, listResponse, noteBody, noteParams, noteResponse } from "./schemas.ts";

/**
 * The routes and what they use, declared: the host checks these deps when it starts and
 * hands them over once the database is open and migrated.
 */
export const releaseNoteRoutes = defineRoutes({
  deps: { db: hostTokens.db, config: configToken<ReleaseNotesConfig>(), logger: hostTokens.logger },
  mount(router, { db, config, logger }) {
    const store = new NoteStore({ db, maxNotes: config.maxNotes });

    router.post("/api/release-notes", { summary: "Add a release note", body: noteBody, response: noteResponse, status: 201 }, async ({ body, agentId }) => {
      const note = await store.add({ ...body, author: agentId });
      logger.info({ id: note.id, version: note.version }, "release note added");
      return { ok: true, note };
    });

    router.get("/api/release-notes", { summary: "List release notes, oldest first", query: listQuery, response: listResponse }, async ({ query }) => ({
      ok: true,
      title: config.title,
      notes: await store.list(query.version),
    }));

    router.get("/api/release-notes/:id", { summary: "Read one release note", params: noteParams, response: noteResponse }, async ({ params }) => ({
      ok: true,
      note: await store.get(params.id),
    }));
  },
});

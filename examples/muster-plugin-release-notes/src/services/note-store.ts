import type { Database } from "@muster/plugin";
import { ReleaseNote } from "../entities/release-note.ts";
import { releaseNotesErrors } from "../errors.ts";

export interface Note { id: number; version: string; text: string; author: string | null; createdAt: string }

const COLUMNS = "id, version, text, author, createdAt";

/** Release notes in the database: writes through the entity, reads as raw rows. */
export class NoteStore {
  private readonly db: Database;
  private readonly maxNotes: number;

  constructor(deps: { db: Database; maxNotes: number }) {
    this.db = deps.db;
    this.maxNotes = deps.maxNotes;
  }

  async add(input: { version: string; text: string; author: string | null }): Promise<Note> {
    const { count } = this.db.sql.prepare("SELECT count(*) AS count FROM release_notes_notes").get() as { count: number };
    if (count >= this.maxNotes) throw releaseNotesErrors.RELEASE_NOTES_FULL({ max: this.maxNotes });
    const em = this.db.em();
    const entity = em.create(ReleaseNote, { ...input, createdAt: new Date().toISOString() });
    await em.flush();
    return this.get(entity.id);
  }

  get(id: number): Note {
    const row = this.db.sql.prepare(`SELECT ${COLUMNS} FROM release_notes_notes WHERE id = ?`).get(id) as Note | undefined;
    if (!row) throw releaseNotesErrors.RELEASE_NOTES_NOT_FOUND({ id });
    return row;
  }

  list(version?: string): Note[] {
    return version === undefined
      ? (this.db.sql.prepare(`SELECT ${COLUMNS} FROM release_notes_notes ORDER BY id`).all() as Note[])
      : (this.db.sql.prepare(`SELECT ${COLUMNS} FROM release_notes_notes WHERE version = ? ORDER BY id`).all(version) as Note[]);
  }
}

import type { Database, EntityRow } from "@muster/plugin";
import { ReleaseNote } from "../entities/release-note.ts";
import { releaseNotesErrors } from "../errors.ts";

/** A note as the API returns it: the entity's row, derived from the one declaration. */
export type Note = EntityRow<typeof ReleaseNote>;

/** Every column, derived once from the entity. */
const FIELDS = Object.keys(ReleaseNote.meta.properties) as (keyof Note)[];

/** Release notes in the database: reads through MikroORM's query builder as plain rows. */
export class NoteStore {
  private readonly db: Database;
  private readonly maxNotes: number;

  constructor(deps: { db: Database; maxNotes: number }) {
    this.db = deps.db;
    this.maxNotes = deps.maxNotes;
  }

  /**
   * Adds a note unless the table already holds `maxNotes`. The cap and the insert are one
   * SQL statement, so the cap holds whatever the driver does between two awaits: a count
   * followed by an awaited insert is safe on SQLite today only because MikroORM's SQLite
   * path never yields in between, and concurrent requests would overshoot on a driver that
   * does (PostgreSQL).
   */
  async add(input: { version: string; text: string; author: string | null }): Promise<Note> {
    const inserted = this.db.sql
      .prepare(
        `INSERT INTO release_notes_notes (version, text, author, createdAt)
         SELECT @version, @text, @author, @createdAt WHERE (SELECT count(*) FROM release_notes_notes) < @max`,
      )
      .run({ ...input, createdAt: new Date().toISOString(), max: this.maxNotes });
    if (inserted.changes === 0) throw releaseNotesErrors.RELEASE_NOTES_FULL({ max: this.maxNotes });
    return this.get(Number(inserted.lastInsertRowid));
  }

  async get(id: number): Promise<Note> {
    const row = await this.query().where({ id }).execute<Note | undefined>("get", false);
    if (!row) throw releaseNotesErrors.RELEASE_NOTES_NOT_FOUND({ id });
    return row;
  }

  async list(version?: string): Promise<Note[]> {
    const query = this.query().orderBy({ id: "asc" });
    return (version === undefined ? query : query.where({ version })).execute<Note[]>("all", false);
  }

  private query() {
    return this.db.em().createQueryBuilder(ReleaseNote).select(FIELDS);
  }
}

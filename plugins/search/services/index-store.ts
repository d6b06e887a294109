import type { Database } from "@muster/plugin";
import { SearchFile, type FileRow } from "../entities/search-file.ts";
import { SearchState, type SearchStateRow } from "../entities/search-state.ts";

export type { FileRow };

export interface PersistedIndex {
  format: string;
  json: string;
  data: Buffer | null;
}

const INDEX_KEY = "index";
const FORMAT_KEY = "format";

/** Every column of `search_files`, derived once from the entity. */
const FILE_FIELDS = Object.keys(SearchFile.meta.properties) as (keyof FileRow)[];

/**
 * SQLite persistence of the index. A row means "the saved index holds this file as it was
 * at this size and mtime". Full saves write the serialised index and every row in one
 * transaction; between full saves, a change only deletes the file's row (cheap), so after
 * any crash the next start re-reads exactly the files whose row is missing or differs.
 *
 * The start-up loads read through MikroORM's query builder. The writes are the index's hot
 * path and stay prepared SQL in synchronous transactions: a full save replaces thousands of
 * rows and the serialised index as one unit, and an invalidation must be gone before the
 * next task of the index's queue runs; an awaited ORM write would let other requests'
 * statements into the save's transaction and cost a query build per row.
 */
export class IndexStore {
  private readonly db: () => Database;
  constructor(db: () => Database) {
    this.db = db;
  }

  async loadRows(): Promise<Map<string, FileRow>> {
    const rows = await this.db().em().createQueryBuilder(SearchFile).select(FILE_FIELDS).execute<FileRow[]>("all");
    return new Map(rows.map((r) => [r.path, r]));
  }

  async loadIndex(): Promise<PersistedIndex | undefined> {
    const rows = await this.db()
      .em()
      .createQueryBuilder(SearchState)
      .select(["key", "value", "data"])
      .where({ key: { $in: [FORMAT_KEY, INDEX_KEY] } })
      .execute<Pick<SearchStateRow, "key" | "value" | "data">[]>("all");
    const format = rows.find((r) => r.key === FORMAT_KEY)?.value;
    const index = rows.find((r) => r.key === INDEX_KEY);
    return format && index?.value ? { format, json: index.value, data: index.data } : undefined;
  }

  /** Replaces the saved index and every row, in one transaction. */
  saveAll(input: { format: string; json: string; data: Buffer | null; rows: Iterable<FileRow> }): void {
    const sql = this.db().sql;
    const now = new Date().toISOString();
    const insert = sql.prepare(`INSERT INTO search_files (${FILE_FIELDS.join(", ")}) VALUES (${FILE_FIELDS.map((f) => `@${f}`).join(", ")})`);
    const state = sql.prepare(
      "INSERT INTO search_state (key, value, data, updatedAt) VALUES (?, ?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, data = excluded.data, updatedAt = excluded.updatedAt",
    );
    sql.transaction(() => {
      sql.prepare("DELETE FROM search_files").run();
      for (const row of input.rows) insert.run(row);
      state.run(FORMAT_KEY, input.format, null, now);
      state.run(INDEX_KEY, input.json, input.data, now);
    })();
  }

  /**
   * Deletes the rows of paths whose entry in the live index no longer matches the saved
   * index, so the next start re-reads those files (or drops them when they are gone).
   */
  invalidate(paths: Iterable<string>): void {
    const sql = this.db().sql;
    const remove = sql.prepare("DELETE FROM search_files WHERE path = ?");
    sql.transaction(() => {
      for (const path of paths) remove.run(path);
    })();
  }
}

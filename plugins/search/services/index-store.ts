import type { Database } from "@muster/plugin";

/** One row of `search_files`: the spec's Workspace file index entry plus title and category. */
export interface FileRow {
  id: string;
  path: string;
  type: "markdown" | "yaml";
  size: number;
  /** ISO timestamp of the file's mtime (ms precision). */
  lastModified: string;
  /** When the file was first indexed. */
  createdAt: string;
  title: string;
  category: string;
  /** When this file was last (re)indexed. */
  indexedAt: string;
}

export interface PersistedIndex {
  format: string;
  json: string;
  data: Buffer | null;
}

const INDEX_KEY = "index";
const FORMAT_KEY = "format";

/**
 * SQLite persistence of the index. A row means "the saved index holds this file as it was
 * at this size and mtime". Full saves write the serialised index and every row in one
 * transaction; between full saves, a change only deletes the file's row (cheap), so after
 * any crash the next start re-reads exactly the files whose row is missing or differs.
 */
export class IndexStore {
  private readonly db: () => Database;
  constructor(db: () => Database) {
    this.db = db;
  }

  loadRows(): Map<string, FileRow> {
    const rows = this.db().sql.prepare("SELECT id, path, type, size, lastModified, createdAt, title, category, indexedAt FROM search_files").all() as FileRow[];
    return new Map(rows.map((r) => [r.path, r]));
  }

  loadIndex(): PersistedIndex | undefined {
    const get = this.db().sql.prepare("SELECT value, data FROM search_state WHERE key = ?");
    const format = (get.get(FORMAT_KEY) as { value: string } | undefined)?.value;
    const index = get.get(INDEX_KEY) as { value: string; data: Buffer | null } | undefined;
    return format && index?.value ? { format, json: index.value, data: index.data } : undefined;
  }

  /** Replaces the saved index and every row, in one transaction. */
  saveAll(input: { format: string; json: string; data: Buffer | null; rows: Iterable<FileRow> }): void {
    const sql = this.db().sql;
    const now = new Date().toISOString();
    const insert = sql.prepare(
      `INSERT INTO search_files (id, path, type, size, lastModified, createdAt, title, category, indexedAt)
       VALUES (@id, @path, @type, @size, @lastModified, @createdAt, @title, @category, @indexedAt)`,
    );
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

import type { Database } from "../../../core/plugin-api/index.ts";

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
 * SQLite persistence of the index: the file rows and the serialised minisearch index are
 * written in one synchronous transaction, so after any crash they describe the same set
 * of documents (rows changed since the last save simply look changed on restart).
 */
export class IndexStore {
  constructor(private readonly db: () => Database) {}

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

  /**
   * Saves the index and the rows of `changed` paths: a path present in `rows` is upserted,
   * an absent one deleted. `replaceAll` first empties the table (after a full build).
   */
  save(input: { format: string; json: string; data: Buffer | null; rows: Map<string, FileRow>; changed: Iterable<string>; replaceAll: boolean }): void {
    const sql = this.db().sql;
    const now = new Date().toISOString();
    const upsert = sql.prepare(
      `INSERT INTO search_files (id, path, type, size, lastModified, createdAt, title, category, indexedAt)
       VALUES (@id, @path, @type, @size, @lastModified, @createdAt, @title, @category, @indexedAt)
       ON CONFLICT(path) DO UPDATE SET type = excluded.type, size = excluded.size, lastModified = excluded.lastModified,
         title = excluded.title, category = excluded.category, indexedAt = excluded.indexedAt`,
    );
    const remove = sql.prepare("DELETE FROM search_files WHERE path = ?");
    const state = sql.prepare(
      "INSERT INTO search_state (key, value, data, updatedAt) VALUES (?, ?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, data = excluded.data, updatedAt = excluded.updatedAt",
    );
    sql.transaction(() => {
      if (input.replaceAll) {
        sql.prepare("DELETE FROM search_files").run();
        for (const row of input.rows.values()) upsert.run(row);
      } else {
        for (const path of input.changed) {
          const row = input.rows.get(path);
          if (row) upsert.run(row);
          else remove.run(path);
        }
      }
      state.run(FORMAT_KEY, input.format, null, now);
      state.run(INDEX_KEY, input.json, input.data, now);
    })();
  }
}

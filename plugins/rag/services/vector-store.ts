import { defineStore, type Database, type EntityStore } from "@muster/plugin";
import type { Chunk } from "../domain/chunker.ts";
import { RagChunk } from "../entities/rag-chunk.ts";
import { RagFile } from "../entities/rag-file.ts";
import { RagSetting } from "../entities/rag-setting.ts";

// Rows unmapped: vectors stay the driver's Buffers, other columns are text and numbers.
const files = defineStore(RagFile, { key: "path", mapRows: false });
const chunks = defineStore(RagChunk, { mapRows: false });
const settings = defineStore(RagSetting, { key: "key", mapRows: false });

/** All vectors of one provider key in one contiguous array, for brute-force cosine. */
export interface VectorMatrix {
  key: string;
  dimensions: number;
  ids: number[];
  paths: string[];
  vectors: Float32Array;
}

/**
 * `rag_files`, `rag_chunks`, `rag_settings`: reads over the store kit. A file's chunks are
 * replaced in one synchronous raw transaction (delete, insert, record the file), so a server
 * killed mid-index leaves each file either fully old or fully new, and the next job redoes
 * what is missing; a file's removal likewise.
 */
export class VectorStore {
  private readonly db: () => Database;
  private readonly files: EntityStore<typeof RagFile, "path">;
  private readonly chunkRows: EntityStore<typeof RagChunk>;
  private readonly settings: EntityStore<typeof RagSetting, "key">;
  constructor(db: () => Database) {
    this.db = db;
    this.files = files.on(db);
    this.chunkRows = chunks.on(db);
    this.settings = settings.on(db);
  }

  async fileStates(): Promise<Map<string, { contentHash: string; providerKey: string }>> {
    const rows = await this.files.list({ fields: ["path", "contentHash", "providerKey"] });
    return new Map(rows.map((r) => [r.path, { contentHash: r.contentHash, providerKey: r.providerKey }]));
  }

  /**
   * Stores a file's chunks under `key` unless `stillWanted()` says otherwise at commit time
   * (the file vanished or the provider changed while it was embedded). Returns whether it stored.
   */
  commitFile(file: { path: string; contentHash: string; key: string; dimensions: number; chunks: Chunk[]; vectors: Float32Array[] }, stillWanted: () => boolean): boolean {
    const sql = this.db().sql;
    return sql.transaction(() => {
      if (!stillWanted()) return false;
      sql.prepare("DELETE FROM rag_chunks WHERE path = ?").run(file.path);
      const insert = sql.prepare("INSERT INTO rag_chunks (path, startLine, endLine, text, providerKey, dimensions, vector) VALUES (?, ?, ?, ?, ?, ?, ?)");
      file.chunks.forEach((c, i) => {
        const v = file.vectors[i]!;
        insert.run(file.path, c.startLine, c.endLine, c.text, file.key, file.dimensions, Buffer.from(v.buffer, v.byteOffset, v.byteLength));
      });
      sql
        .prepare("INSERT INTO rag_files (path, contentHash, providerKey, chunks, indexedAt) VALUES (?, ?, ?, ?, ?) ON CONFLICT(path) DO UPDATE SET contentHash = excluded.contentHash, providerKey = excluded.providerKey, chunks = excluded.chunks, indexedAt = excluded.indexedAt")
        .run(file.path, file.contentHash, file.key, file.chunks.length, new Date().toISOString());
      return true;
    })();
  }

  removeFile(path: string): void {
    const sql = this.db().sql;
    sql.transaction(() => {
      sql.prepare("DELETE FROM rag_chunks WHERE path = ?").run(path);
      sql.prepare("DELETE FROM rag_files WHERE path = ?").run(path);
    })();
  }

  async matrix(key: string): Promise<VectorMatrix> {
    const rows = await this.chunkRows.list({ fields: ["id", "path", "dimensions", "vector"], where: { providerKey: key }, orderBy: { id: "asc" } });
    const dimensions = rows[0]?.dimensions ?? 0;
    const vectors = new Float32Array(rows.length * dimensions);
    rows.forEach((r, i) => {
      const b = r.vector as Buffer;
      vectors.set(new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4), i * dimensions);
    });
    return { key, dimensions, ids: rows.map((r) => r.id), paths: rows.map((r) => r.path), vectors };
  }

  async chunks(ids: number[]): Promise<Map<number, { path: string; startLine: number; endLine: number; text: string }>> {
    if (ids.length === 0) return new Map();
    const rows = await this.chunkRows.list({ fields: ["id", "path", "startLine", "endLine", "text"], where: { id: { $in: ids } } });
    return new Map(rows.map((r) => [r.id, r]));
  }

  /**
   * The first stored chunk of each path, whatever provider embedded it (lines and text do not
   * depend on it). Raw: one statement prepared once and re-run per path on a search's path,
   * where a query-builder read per path would compile a new statement each time.
   */
  firstChunks(paths: string[]): Map<string, { path: string; startLine: number; endLine: number; text: string }> {
    const out = new Map<string, { path: string; startLine: number; endLine: number; text: string }>();
    const get = this.db().sql.prepare("SELECT path, startLine, endLine, text FROM rag_chunks WHERE path = ? ORDER BY startLine, id LIMIT 1");
    for (const p of paths) {
      const row = get.get(p) as { path: string; startLine: number; endLine: number; text: string } | undefined;
      if (row) out.set(p, row);
    }
    return out;
  }

  /** Files and chunks stored under `key`, and all indexed files. */
  async counts(key: string): Promise<{ indexed: number; files: number; chunks: number }> {
    const [indexed, files, chunks] = await Promise.all([this.files.count({ providerKey: key }), this.files.count(), this.chunkRows.count({ providerKey: key })]);
    return { indexed, files, chunks };
  }

  async setting(key: string): Promise<string | null> {
    return (await this.settings.get(key))?.value ?? null;
  }

  /** Raw: one upsert (`ON CONFLICT DO UPDATE`). */
  saveSetting(key: string, value: string): void {
    this.db().sql.prepare("INSERT INTO rag_settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(key, value);
  }
}

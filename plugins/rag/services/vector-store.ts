import type { Database } from "@muster/plugin";
import type { Chunk } from "../domain/chunker.ts";
import { RagChunk } from "../entities/rag-chunk.ts";
import { RagFile } from "../entities/rag-file.ts";
import { RagSetting } from "../entities/rag-setting.ts";

/** All vectors of one provider key in one contiguous array, for brute-force cosine. */
export interface VectorMatrix {
  key: string;
  dimensions: number;
  ids: number[];
  paths: string[];
  vectors: Float32Array;
}

/**
 * `rag_files`, `rag_chunks`, `rag_settings`. A file's chunks are replaced in one synchronous
 * transaction (delete, insert, record the file), so a server killed mid-index leaves each
 * file either fully old or fully new, and the next job redoes what is missing.
 */
export class VectorStore {
  private readonly db: () => Database;
  constructor(db: () => Database) {
    this.db = db;
  }

  async fileStates(): Promise<Map<string, { contentHash: string; providerKey: string }>> {
    const rows = await this.db().em().createQueryBuilder(RagFile).select(["path", "contentHash", "providerKey"]).execute("all", false);
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
    const rows = await this.db().em().createQueryBuilder(RagChunk).select(["id", "path", "dimensions", "vector"]).where({ providerKey: key }).orderBy({ id: "asc" }).execute("all", false);
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
    const rows = await this.db().em().createQueryBuilder(RagChunk).select(["id", "path", "startLine", "endLine", "text"]).where({ id: { $in: ids } }).execute("all", false);
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** The first stored chunk of each path, whatever provider embedded it (lines and text do not depend on it). */
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
  counts(key: string): { indexed: number; files: number; chunks: number } {
    const sql = this.db().sql;
    const indexed = (sql.prepare("SELECT count(*) AS n FROM rag_files WHERE providerKey = ?").get(key) as { n: number }).n;
    const files = (sql.prepare("SELECT count(*) AS n FROM rag_files").get() as { n: number }).n;
    const chunks = (sql.prepare("SELECT count(*) AS n FROM rag_chunks WHERE providerKey = ?").get(key) as { n: number }).n;
    return { indexed, files, chunks };
  }

  async setting(key: string): Promise<string | null> {
    const rows = await this.db().em().createQueryBuilder(RagSetting).select(["value"]).where({ key }).execute("all", false);
    return rows[0]?.value ?? null;
  }

  saveSetting(key: string, value: string): void {
    this.db().sql.prepare("INSERT INTO rag_settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(key, value);
  }
}

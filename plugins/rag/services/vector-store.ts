import { atomically, defineStore, type Database, type DatabaseListener, type EntityStore } from "@muster/plugin";
import type { Chunk } from "../domain/chunker.ts";
import type { IndexJob } from "./index-job.ts";
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

// The statements of the atomic steps, in SQL both engines read (quoted camelCase names, `?`).
// A vector is bound as a Buffer: a BLOB on SQLite, a BYTEA on PostgreSQL (the migration's type there).
const DELETE_CHUNKS = "DELETE FROM rag_chunks WHERE path = ?";
const INSERT_CHUNK = `INSERT INTO rag_chunks (path, "startLine", "endLine", "text", "providerKey", dimensions, vector) VALUES (?, ?, ?, ?, ?, ?, ?)`;
const RECORD_FILE = `INSERT INTO rag_files (path, "contentHash", "providerKey", chunks, "indexedAt") VALUES (?, ?, ?, ?, ?)
  ON CONFLICT (path) DO UPDATE SET "contentHash" = excluded."contentHash", "providerKey" = excluded."providerKey", chunks = excluded.chunks, "indexedAt" = excluded."indexedAt"`;
const DELETE_FILE = "DELETE FROM rag_files WHERE path = ?";
const FIRST_CHUNK = `SELECT path, "startLine", "endLine", "text" FROM rag_chunks WHERE path = ? ORDER BY "startLine", id LIMIT 1`;
// Team mode: a job asked of an instance that is not the primary waits here for the primary (rag-service.ts).
const REQUEST_KEY = "index-request";
const FORCE_KEY = "index-request-force";
const REQUEST = "INSERT INTO rag_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING";
const READ_SETTING = "SELECT value FROM rag_settings WHERE key = ?";
const TAKE_REQUEST = "DELETE FROM rag_settings WHERE key IN (?, ?) RETURNING key, value";
// Team mode: the primary's job as it last reported it, for the other instances' status.
const JOB_KEY = "index-job";
const SAVE_SETTING = "INSERT INTO rag_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value";
const COUNTS = `SELECT (SELECT count(*) FROM rag_files WHERE "providerKey" = ?) AS indexed, (SELECT count(*) FROM rag_files) AS files,
  (SELECT count(*) FROM rag_chunks WHERE "providerKey" = ?) AS chunks, (SELECT value FROM rag_settings WHERE key = ?) AS job,
  (SELECT count(*) FROM rag_settings WHERE key = ?) AS requested`;
// Every commit inserts chunks with new ids and every removal deletes some: the pair changes with the vectors.
const VECTORS_VERSION = `SELECT count(*) AS n, max(id) AS top FROM rag_chunks WHERE "providerKey" = ?`;

/** Thrown inside a file's step to roll it back when the file is no longer wanted at commit time. */
const NOT_WANTED = Symbol("rag: file no longer wanted");

/** The Float32 view of a stored vector; copied when the driver's Buffer is not 4-byte aligned (a Float32Array view needs it). */
function floats(b: Buffer): Float32Array {
  const aligned = b.byteOffset % 4 === 0 ? b : Buffer.from(b);
  return new Float32Array(aligned.buffer, aligned.byteOffset, aligned.byteLength / 4);
}

/** Team mode: woken when the primary's job changed stored vectors (`listenForVectors`). */
const VECTORS_CHANNEL = "rag_vectors";
const NOTIFY_VECTORS = `SELECT pg_notify('${VECTORS_CHANNEL}', '')`;

/**
 * `rag_files`, `rag_chunks`, `rag_settings`, on SQLite and PostgreSQL: reads over the store
 * kit. A file's chunks are replaced in ONE atomic step (`atomically`: delete, insert, record
 * the file), so a server killed mid-index leaves each file either fully old or fully new, and
 * the next job redoes what is missing; a file's removal likewise. On SQLite the steps run
 * synchronously over statements prepared once, as before.
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
   * (the file vanished or the provider changed while it was embedded). Returns whether it
   * stored. The check runs last inside the step, after the writes: on PostgreSQL the
   * statements are awaited, so checking first would leave a window before the commit; an
   * unwanted file rolls the whole step back.
   */
  async commitFile(file: { path: string; contentHash: string; key: string; dimensions: number; chunks: Chunk[]; vectors: Float32Array[] }, stillWanted: () => boolean): Promise<boolean> {
    const notify = this.notifies();
    try {
      return await atomically(this.db(), function* (tx) {
        yield* tx.run(DELETE_CHUNKS, [file.path]);
        for (const [i, c] of file.chunks.entries()) {
          const v = file.vectors[i]!;
          yield* tx.run(INSERT_CHUNK, [file.path, c.startLine, c.endLine, c.text, file.key, file.dimensions, Buffer.from(v.buffer, v.byteOffset, v.byteLength)]);
        }
        yield* tx.run(RECORD_FILE, [file.path, file.contentHash, file.key, file.chunks.length, new Date().toISOString()]);
        if (!stillWanted()) throw NOT_WANTED;
        if (notify) yield* tx.get(NOTIFY_VECTORS);
        return true;
      });
    } catch (error) {
      if (error === NOT_WANTED) return false;
      throw error;
    }
  }

  async removeFile(path: string): Promise<void> {
    const notify = this.notifies();
    await atomically(this.db(), function* (tx) {
      yield* tx.run(DELETE_CHUNKS, [path]);
      yield* tx.run(DELETE_FILE, [path]);
      if (notify) yield* tx.get(NOTIFY_VECTORS);
    });
  }

  /**
   * Team mode: calls `changed` whenever another instance (the primary) committed or removed a
   * file's vectors (and after a lost listening link), so this one reloads them before its next
   * search instead of at its 2 s sweep. Undefined on SQLite (one process).
   */
  listenForVectors(changed: () => void): Promise<DatabaseListener> | undefined {
    return this.db().listen?.(VECTORS_CHANNEL, changed);
  }

  /** PostgreSQL: a file's commit or removal wakes the other instances (delivered at its commit). Nothing on SQLite. */
  private notifies(): boolean {
    return this.db().engine === "postgresql";
  }

  async matrix(key: string): Promise<VectorMatrix> {
    const rows = await this.chunkRows.list({ fields: ["id", "path", "dimensions", "vector"], where: { providerKey: key }, orderBy: { id: "asc" } });
    const dimensions = rows[0]?.dimensions ?? 0;
    const vectors = new Float32Array(rows.length * dimensions);
    rows.forEach((r, i) => {
      vectors.set(floats(r.vector as Buffer), i * dimensions);
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
   * depend on it). Raw: one statement re-run per path in one step on a search's path (prepared
   * once on SQLite), where a query-builder read per path would compile a new statement each time.
   */
  async firstChunks(paths: string[]): Promise<Map<string, { path: string; startLine: number; endLine: number; text: string }>> {
    if (paths.length === 0) return new Map();
    return atomically(this.db(), function* (tx) {
      const out = new Map<string, { path: string; startLine: number; endLine: number; text: string }>();
      for (const p of paths) {
        const row = yield* tx.get<{ path: string; startLine: number; endLine: number; text: string }>(FIRST_CHUNK, [p]);
        if (row) out.set(p, row);
      }
      return out;
    });
  }

  /**
   * Files and chunks stored under `key`, and all indexed files, read in ONE statement: three
   * reads side by side on PostgreSQL ran on three connections at three moments, and a status
   * could pair the file count before a commit with the chunk count after it. With them, as of
   * the same moment (team mode): the primary's job as it last reported it (`saveJob`, written
   * after each commit it counts) and whether a job asked of another instance waits for it.
   */
  async counts(key: string): Promise<{ indexed: number; files: number; chunks: number; primaryJob: IndexJob | null; requested: boolean }> {
    const row = await atomically(this.db(), function* (tx) {
      return yield* tx.get<{ indexed: number | string; files: number | string; chunks: number | string; job: string | null; requested: number | string }>(COUNTS, [key, key, JOB_KEY, REQUEST_KEY]);
    });
    return {
      indexed: Number(row?.indexed ?? 0),
      files: Number(row?.files ?? 0),
      chunks: Number(row?.chunks ?? 0),
      primaryJob: row?.job ? (JSON.parse(row.job) as IndexJob) : null,
      requested: Number(row?.requested ?? 0) > 0,
    };
  }

  /** Team mode: the primary's job as it is now (queued, progressing, ended), for the other instances' status. */
  async saveJob(job: IndexJob): Promise<void> {
    const value = JSON.stringify(job);
    await atomically(this.db(), function* (tx) {
      yield* tx.run(SAVE_SETTING, [JOB_KEY, value]);
    });
  }

  async setting(key: string): Promise<string | null> {
    return (await this.settings.get(key))?.value ?? null;
  }

  /**
   * Asks the primary instance for a job (team mode): the waiting request's job id, this one's
   * when none waited (later requests join it); `force` is kept once any request asked for it.
   */
  requestIndex(jobId: string, force: boolean): Promise<string> {
    return atomically(this.db(), function* (tx) {
      // A concurrent first request waits on the key's unique index, then finds this row committed.
      yield* tx.run(REQUEST, [REQUEST_KEY, jobId]);
      if (force) yield* tx.run(REQUEST, [FORCE_KEY, "1"]);
      return (yield* tx.get<{ value: string }>(READ_SETTING, [REQUEST_KEY]))?.value ?? jobId;
    });
  }

  /**
   * The primary takes the waiting request, if any (one statement: a request made meanwhile
   * waits for the next take). In the same step the request's job is recorded as `queued`
   * (`saveJob`), so no status reads a moment with neither the request nor its job.
   */
  async takeIndexRequest(queued: (jobId: string) => IndexJob): Promise<{ jobId: string; force: boolean } | null> {
    const rows = await atomically(this.db(), function* (tx) {
      const taken = yield* tx.all<{ key: string; value: string }>(TAKE_REQUEST, [REQUEST_KEY, FORCE_KEY]);
      const id = taken.find((r) => r.key === REQUEST_KEY)?.value;
      if (id) yield* tx.run(SAVE_SETTING, [JOB_KEY, JSON.stringify(queued(id))]);
      return taken;
    });
    const jobId = rows.find((r) => r.key === REQUEST_KEY)?.value;
    return jobId ? { jobId, force: rows.some((r) => r.key === FORCE_KEY) } : null;
  }

  /** What changes whenever the vectors stored under `key` change (another instance's job). */
  async vectorsVersion(key: string): Promise<string> {
    const row = await atomically(this.db(), function* (tx) {
      return yield* tx.get<{ n: number | string; top: number | string | null }>(VECTORS_VERSION, [key]);
    });
    return `${row?.n ?? 0}:${row?.top ?? ""}`;
  }

  /** One upsert (`ON CONFLICT DO UPDATE`) through the query builder, on every engine. */
  async saveSetting(key: string, value: string): Promise<void> {
    await this.settings.qb().insert({ key, value }).onConflict("key").merge(["value"]).execute("run");
  }
}

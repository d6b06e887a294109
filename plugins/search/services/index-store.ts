import { randomUUID } from "node:crypto";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { atomically, defineStore, type Database, type EntityStore } from "@muster/plugin";
import { PIECE_BYTES } from "../domain/index-codec.ts";
import { SearchFile, type FileRow } from "../entities/search-file.ts";
import { SearchState, type SearchStateRow } from "../entities/search-state.ts";

export type { FileRow };

export interface PersistedIndex {
  format: string;
  json: string;
  /** The blob: one buffer (an older save) or its parts in order, not joined (index-codec.ts decodes either); null when a part is missing. */
  data: readonly Buffer[] | null;
}

const INDEX_KEY = "index";
const FORMAT_KEY = "format";
/** Which blob parts the saved index uses: `{ generation, parts }` (JSON). */
const PARTS_KEY = "index.parts";
/** Blob parts are stored as `index.data/<generation>/<n>`. */
const PART_PREFIX = "index.data/";
/**
 * One statement writes at most this much of the blob (writing 13 MiB at once held the event
 * loop ~80 ms): the codec's piece size, so each term-aligned piece is one part.
 */
const PART_BYTES = PIECE_BYTES;
/** File rows written per transaction. */
const ROWS_PER_STEP = 500;
/** File rows read per query at start. */
const ROWS_PER_PAGE = ROWS_PER_STEP * 4;

/** Every column of `search_files`, derived once from the entity. */
const FILE_FIELDS = Object.keys(SearchFile.meta.properties) as (keyof FileRow)[];

// The statements of the writes, in SQL both engines read (quoted camelCase names, `?`).
const INSERT_FILE = `INSERT INTO search_files (${FILE_FIELDS.map((f) => `"${f}"`).join(", ")}) VALUES (${FILE_FIELDS.map(() => "?").join(", ")})`;
const UPSERT_STATE = `INSERT INTO search_state (key, value, data, "updatedAt") VALUES (?, ?, ?, ?)
  ON CONFLICT (key) DO UPDATE SET value = excluded.value, data = excluded.data, "updatedAt" = excluded."updatedAt"`;
/** The blob parts of every generation but the current one. */
const DELETE_OTHER_PARTS = "DELETE FROM search_state WHERE substr(key, 1, ?) = ? AND substr(key, 1, ?) <> ?";

/** By path, the order the start-up load pages in. */
const files = defineStore(SearchFile, { orderBy: { path: "asc" } });
const states = defineStore(SearchState, { key: "key", fields: ["key", "value", "data"] });

/**
 * Persistence of the index, on SQLite and PostgreSQL. A row means "the saved index holds this file as it was
 * at this size and mtime". Full saves write the serialised index and every row (in steps,
 * see {@link IndexStore.saveAll}); between full saves, a change only deletes the file's row (cheap), so after
 * any crash the next start re-reads exactly the files whose row is missing or differs.
 *
 * The start-up loads read over the store kit. The writes are the index's hot path and are
 * the kit's atomic steps (`atomically`) over raw SQL written once for both engines: a full
 * save replaces thousands of rows and the serialised index in a known order, and an
 * invalidation must be gone before the next task of the index's queue runs (the index awaits
 * it). On SQLite each step runs synchronously over statements prepared once, as the
 * synchronous transactions it replaces did (an awaited ORM write would let other requests'
 * statements into the save's transaction and cost a query build per row); on PostgreSQL each
 * step is one transaction on a pooled connection of its own.
 */
export class IndexStore {
  private readonly db: () => Database;
  private readonly files: EntityStore<typeof SearchFile>;
  private readonly states: EntityStore<typeof SearchState, "key">;
  constructor(db: () => Database) {
    this.db = db;
    this.files = files.on(db);
    this.states = states.on(db);
  }

  /** Every row, read in pages by path (one 10,000-row read held the event loop ~50 ms at start). */
  async loadRows(): Promise<Map<string, FileRow>> {
    const all = new Map<string, FileRow>();
    let after: string | undefined;
    for (;;) {
      const page = await this.files.list({ where: after === undefined ? undefined : { path: { $gt: after } }, limit: ROWS_PER_PAGE });
      for (const row of page) all.set(row.path, row);
      if (page.length < ROWS_PER_PAGE) return all;
      after = page.at(-1)!.path;
      await yieldToEventLoop();
    }
  }

  async loadIndex(): Promise<PersistedIndex | undefined> {
    const rows = await this.state({ key: { $in: [FORMAT_KEY, INDEX_KEY, PARTS_KEY] } });
    const format = rows.find((r) => r.key === FORMAT_KEY)?.value;
    const index = rows.find((r) => r.key === INDEX_KEY);
    if (!format || !index?.value) return undefined;
    if (index.data) return { format, json: index.value, data: [index.data] };
    const manifest = rows.find((r) => r.key === PARTS_KEY)?.value;
    const data = manifest ? await this.loadParts(manifest) : null;
    return { format, json: index.value, data };
  }

  /** The blob parts a manifest names, in order; null when one is missing (the caller then rebuilds). */
  private async loadParts(manifest: string): Promise<Buffer[] | null> {
    let generation: unknown, parts: unknown;
    try {
      ({ generation, parts } = JSON.parse(manifest));
    } catch {
      return null;
    }
    if (typeof generation !== "string" || !Number.isInteger(parts) || (parts as number) < 1 || (parts as number) > 10_000) return null;
    const keys = Array.from({ length: parts as number }, (_, n) => `${PART_PREFIX}${generation}/${n}`);
    const rows = new Map((await this.state({ key: { $in: keys } })).map((r) => [r.key, r.data]));
    const buffers = keys.map((key) => rows.get(key));
    return buffers.every((b): b is Buffer => b instanceof Uint8Array) ? buffers : null;
  }

  private state(where: { key: { $in: string[] } }): Promise<Pick<SearchStateRow, "key" | "value" | "data">[]> {
    return this.states.list({ where });
  }

  /**
   * Replaces the saved index and every row in small steps, calling `pause` between them so
   * the event loop is never held by the 14 MB write. Crash-safe by order: the rows go
   * first (nothing vouches for the old index any more), the blob is written in parts under
   * a new generation, one transaction switches the index text and the parts manifest to
   * it, then the rows of the new index are written. A crash anywhere leaves rows only for
   * files the saved index holds as they are, so the next start re-reads exactly the rest.
   * The caller must not change the index or the rows until it ends.
   */
  async saveAll(input: { format: string; json: string; data: Buffer[]; rows: Iterable<FileRow> }, pause: () => Promise<void>): Promise<void> {
    const db = this.db();
    const now = new Date().toISOString();
    await atomically(db, (tx) => tx.run("DELETE FROM search_files"));
    await pause();
    const generation = `${Date.now().toString(36)}-${randomUUID().slice(0, 8)}`;
    let parts = 0;
    for (const buffer of input.data) {
      for (let at = 0; at < buffer.length; at += PART_BYTES) {
        await atomically(db, (tx) => tx.run(UPSERT_STATE, [`${PART_PREFIX}${generation}/${parts++}`, "", buffer.subarray(at, at + PART_BYTES), now]));
        await pause();
      }
    }
    const partsOfOthers = [PART_PREFIX.length, PART_PREFIX, PART_PREFIX.length + generation.length + 1, `${PART_PREFIX}${generation}/`];
    await atomically(db, function* (tx) {
      yield* tx.run(UPSERT_STATE, [FORMAT_KEY, input.format, null, now]);
      yield* tx.run(UPSERT_STATE, [INDEX_KEY, input.json, null, now]);
      yield* tx.run(UPSERT_STATE, [PARTS_KEY, JSON.stringify({ generation, parts }), null, now]);
      yield* tx.run(DELETE_OTHER_PARTS, partsOfOthers);
    });
    await pause();
    const rows = [...input.rows];
    for (let i = 0; i < rows.length; i += ROWS_PER_STEP) {
      await atomically(db, function* (tx) {
        for (const row of rows.slice(i, i + ROWS_PER_STEP)) yield* tx.run(INSERT_FILE, FILE_FIELDS.map((f) => row[f]));
      });
      await pause();
    }
  }

  /**
   * Deletes the rows of paths whose entry in the live index no longer matches the saved
   * index, so the next start re-reads those files (or drops them when they are gone). One
   * step; on SQLite done before this returns.
   */
  async invalidate(paths: Iterable<string>): Promise<void> {
    const list = [...paths];
    await atomically(this.db(), function* (tx) {
      for (const path of list) yield* tx.run("DELETE FROM search_files WHERE path = ?", [path]);
    });
  }
}

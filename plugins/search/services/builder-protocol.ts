// What the search index and its builder process exchange (see builder-process.ts). The bulk
// (the file list, the encoded indexes, the rows) goes through files in a private temporary
// directory: over the IPC pipe it moved in 64 KiB writes, each waiting for a turn of the
// host's event loop, busy with the watcher's scan (~0.4 s each way for 10,000 files).
import type { FoundFile } from "../domain/walk.ts";
import type { FileRow } from "./index-store.ts";
import type { SkipReason } from "./file-loader.ts";

/** How the process builds; sent at its start. */
export interface BuilderSetup {
  /** The private directory the files below are in. */
  dir: string;
  maxFileBytes: number;
  /** During the first build: how often the files read so far are sent as a partial index (ms); null: never. */
  publishEveryMs: number | null;
}

export const FILES_FILE = "files.json";
export const RESULT_FILE = "result.json";
/** An encoded index `name` is two files: its JSON text and its blob (index-codec.ts). */
export const indexFiles = (name: string) => ({ text: `${name}.json`, blob: `${name}.bin` });

/** The walk's files, in its order, in {@link FILES_FILE}. */
export type BuilderFiles = FoundFile[];

/** The process's result besides the index, in {@link RESULT_FILE}. */
export interface BuilderResult {
  /** New rows: `id` and `createdAt` are fresh (the index keeps those of files it had; see builder-process.ts). */
  rows: FileRow[];
  skipped: [path: string, reason: SkipReason][];
  problems: [path: string, problem: string][];
  readMs: number;
  indexMs: number;
}

export type ToBuilder = { kind: "setup"; setup: BuilderSetup } | { kind: "build" };

export type FromBuilder =
  /** A partial index of the files read so far (first build only), in `indexFiles(name)`. */
  | { kind: "snapshot"; name: string; codec: string }
  /** The index in `indexFiles("index")`, the rest in {@link RESULT_FILE}. */
  | { kind: "done"; codec: string }
  | { kind: "failed"; message: string };

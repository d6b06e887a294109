// What the search index and its build thread send each other (see build-thread.ts).
import type { FoundFile } from "../domain/walk.ts";
import type { FileRow } from "./index-store.ts";
import type { SkipReason } from "./file-loader.ts";

/** How the thread builds, sent as its `workerData`; the files follow in one message once the walk has ended. */
export interface ThreadBuildSetup {
  maxFileBytes: number;
  /** During the first build: how often the files read so far are sent as a partial index (ms); null: never. */
  publishEveryMs: number | null;
}

/** The walk's files, in its order: the thread's one message. */
export interface ThreadBuildFiles {
  files: FoundFile[];
}

/** An encoded index (index-codec.ts's format) with its blob in one buffer, moved, not copied. */
export interface EncodedIndexMessage {
  codec: string;
  text: string;
  blob: Uint8Array;
}

export type ThreadBuildMessage =
  /** The files read so far, searchable (first build only). */
  | { kind: "snapshot"; index: EncodedIndexMessage }
  | {
      kind: "done";
      index: EncodedIndexMessage;
      /** New rows: `id` and `createdAt` are fresh (the index keeps those of files it had; see build-thread.ts). */
      rows: FileRow[];
      skipped: [path: string, reason: SkipReason][];
      problems: [path: string, problem: string][];
      readMs: number;
      indexMs: number;
    }
  | { kind: "failed"; message: string };

import { randomUUID } from "node:crypto";
import { realpathSync } from "node:fs";
import type { WorkspacePaths } from "@muster/plugin";
import { decodeText, parseFile, type SearchDocument } from "../domain/document.ts";
import { makeExcerpt } from "../domain/excerpt.ts";
import type { FoundFile } from "../domain/walk.ts";
import type { FileRow } from "./index-store.ts";
import { readBoundedSync } from "./read-file.ts";

/** Why a searchable file is not in the index. */
export type SkipReason = "tooLarge" | "binary" | "invalidUtf8";

/** What reading one file gave: a document with its file-index row, a skip, or nothing (gone). */
export type Loaded = { kind: "indexed"; document: SearchDocument; row: FileRow; problem?: string } | { kind: "skipped"; reason: SkipReason } | { kind: "missing" };

/** A file's mtime as stored in the file index (ISO, millisecond precision). */
export const isoOfMtime = (mtimeMs: number) => new Date(Math.floor(mtimeMs)).toISOString();

/**
 * Reads and parses one file. Synchronous on purpose: files are small and capped, and
 * callers work in batches with a yield between batches; a thread-pool round trip per file
 * was the slowest part of a build. `previous` keeps the row's id and `createdAt`.
 */
export function loadFile(file: FoundFile, maxBytes: number, previous: FileRow | undefined): Loaded {
  if (file.size > maxBytes) return { kind: "skipped", reason: "tooLarge" };
  let bytes: Buffer | "too-large";
  try {
    bytes = readBoundedSync(file.absolutePath, maxBytes, file.size);
  } catch {
    return { kind: "missing" };
  }
  if (bytes === "too-large") return { kind: "skipped", reason: "tooLarge" };
  const text = decodeText(bytes);
  if (text === "binary") return { kind: "skipped", reason: "binary" };
  if (text === "invalid-utf8") return { kind: "skipped", reason: "invalidUtf8" };
  const parsed = parseFile(file.path, text);
  const now = new Date().toISOString();
  const row: FileRow = {
    id: previous?.id ?? randomUUID(),
    path: file.path,
    type: parsed.type,
    size: file.size,
    lastModified: isoOfMtime(file.mtimeMs),
    createdAt: previous?.createdAt ?? now,
    title: parsed.document.title,
    category: parsed.document.category,
    indexedAt: now,
  };
  return { kind: "indexed", document: parsed.document, row, problem: parsed.problem };
}

/** The excerpt of an indexed file around `matched` terms, read now; `""` when it cannot be read. */
export function readExcerpt(workspace: WorkspacePaths, path: string, read: { max: number; hint?: number }, matched: string[], queryWords: string[]): string {
  try {
    // The real path, checked, and opened without following a link: a link planted after
    // indexing cannot leak text from outside the workspace.
    const real = realpathSync(workspace.resolve(path));
    if (!workspace.contains(real)) return "";
    const bytes = readBoundedSync(real, read.max, read.hint);
    const text = bytes === "too-large" ? undefined : decodeText(bytes);
    return text === undefined || text === "binary" || text === "invalid-utf8" ? "" : makeExcerpt(text, matched, queryWords);
  } catch {
    return ""; // Deleted since it was indexed; the next event or re-index drops it.
  }
}

import { lstat, opendir, stat } from "node:fs/promises";
import { join } from "node:path";
import { MusterError, type Logger, type WorkspacePaths } from "@muster/plugin";
import type { MemoryConfig } from "../config.ts";
import { docCategory, type DocCategory } from "./doc-category.ts";
import { skipRefused } from "./list-dir.ts";
import { readTextFile, type TextFile } from "./text-file.ts";

/** One markdown or YAML file of the workspace (spec: Workspace document). */
export interface WorkspaceDocument {
  name: string;
  path: string;
  category: DocCategory;
  size: number;
  wordCount: number;
  modifiedAt: string;
  content: string;
  truncated: boolean;
  binary: boolean;
}

/** Directories never scanned: hidden ones (`.git`, `.cache`, …) and vendor or build trees. */
const SKIPPED_DIRS = new Set(["node_modules", "venv", "__pycache__", "vendor", "dist", "build"]);
const DOC_FILE = /\.(md|ya?ml)$/i;

/** Whether the scan lists this workspace-relative path: a markdown/YAML file outside hidden and skipped directories. */
export function isListedDocumentPath(rel: string): boolean {
  const parts = rel.split("/");
  return DOC_FILE.test(parts.at(-1) ?? "") && parts.every((part) => part !== "" && !part.startsWith(".")) && !parts.slice(0, -1).some((part) => SKIPPED_DIRS.has(part));
}

const asDocument = (name: string, read: TextFile): WorkspaceDocument => ({ name, ...read, category: docCategory(read.path) });

interface Candidate {
  rel: string;
  name: string;
  mtimeMs: number;
}

/**
 * Walks the whole workspace (not the first N files in walk order, as the reference did),
 * sorts every markdown/YAML file by modification time and reads only the `limit` newest.
 */
export async function listDocuments(
  deps: { workspace: WorkspacePaths; config: MemoryConfig; logger: Logger },
  options: { limit: number; category?: DocCategory },
): Promise<WorkspaceDocument[]> {
  const { workspace, config, logger } = deps;
  const candidates: Candidate[] = [];
  let visited = 0;
  const walk = async (dirRel: string): Promise<void> => {
    let dir;
    try {
      dir = await opendir(join(workspace.root, dirRel));
    } catch {
      return; // vanished or unreadable directory: skipped
    }
    const subdirs: string[] = [];
    for await (const entry of dir) {
      if (++visited > config.docsScanMaxEntries) break;
      if (entry.name.startsWith(".")) continue;
      const rel = dirRel ? `${dirRel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        // Symlinked directories are not entered (no cycles, no escapes).
        if (!SKIPPED_DIRS.has(entry.name)) subdirs.push(rel);
        continue;
      }
      if (!DOC_FILE.test(entry.name) || !(entry.isFile() || entry.isSymbolicLink())) continue;
      if (options.category && docCategory(rel) !== options.category) continue;
      try {
        const info = entry.isSymbolicLink() ? await stat(workspace.resolve(rel)) : await lstat(join(workspace.root, rel));
        if (info.isFile()) candidates.push({ rel, name: entry.name, mtimeMs: info.mtimeMs });
      } catch (error) {
        if (error instanceof MusterError) logger.warn({ path: rel, code: error.code }, "workspace document skipped");
      }
    }
    for (const sub of subdirs) {
      if (visited > config.docsScanMaxEntries) return;
      await walk(sub);
    }
  };
  await walk("");
  if (visited > config.docsScanMaxEntries) logger.warn({ limit: config.docsScanMaxEntries }, "docs scan stopped at the entry limit");
  candidates.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.rel < b.rel ? -1 : 1));

  const documents: WorkspaceDocument[] = [];
  for (const candidate of candidates) {
    if (documents.length >= options.limit) break;
    const read = await skipRefused(candidate.rel, logger, () =>
      readTextFile(workspace, candidate.rel, { maxBytes: config.docsContentMaxBytes, wordCountMaxBytes: config.wordCountMaxBytes }),
    );
    if (!read) continue;
    documents.push(asDocument(candidate.name, read));
  }
  return documents;
}

/**
 * One document by its workspace-relative path (`GET /api/docs?path=`), with the larger
 * single-file content cap; none when the scan would not list it or it does not exist.
 * A path leaving the workspace is refused (400 PATH_OUTSIDE_WORKSPACE).
 */
export async function readDocument(
  deps: { workspace: WorkspacePaths; config: MemoryConfig },
  path: string,
  category?: DocCategory,
): Promise<WorkspaceDocument[]> {
  const { workspace, config } = deps;
  const rel = workspace.relative(workspace.resolve(path));
  if (!isListedDocumentPath(rel) || (category && docCategory(rel) !== category)) return [];
  const read = await readTextFile(workspace, rel, { maxBytes: config.contentMaxBytes, wordCountMaxBytes: config.wordCountMaxBytes });
  return read ? [asDocument(rel.split("/").at(-1)!, read)] : [];
}

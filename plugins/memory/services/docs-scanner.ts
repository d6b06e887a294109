import { lstat, opendir, stat } from "node:fs/promises";
import { join } from "node:path";
import { MusterError, type Logger, type WorkspacePaths } from "@muster/plugin";
import type { MemoryConfig } from "../config.ts";
import { DOC_CATEGORIES, docCategory, type DocCategory } from "./doc-category.ts";
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

/** A document file found by the scan, before it is read: what a stat tells. */
export interface DocumentFile {
  name: string;
  path: string;
  category: DocCategory;
  size: number;
  mtimeMs: number;
}

type ScanDeps = { workspace: WorkspacePaths; config: MemoryConfig; logger: Logger };

/**
 * Walks the whole workspace (not the first N files in walk order, as the reference did) and
 * returns every markdown/YAML file (of `category` when given), newest modification first.
 * Only stats: nothing is read.
 */
export async function scanDocumentFiles(deps: ScanDeps, category?: DocCategory): Promise<DocumentFile[]> {
  const { workspace, config, logger } = deps;
  const found: DocumentFile[] = [];
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
      const fileCategory = docCategory(rel);
      if (category && fileCategory !== category) continue;
      try {
        const info = entry.isSymbolicLink() ? await stat(workspace.resolve(rel)) : await lstat(join(workspace.root, rel));
        if (info.isFile()) found.push({ name: entry.name, path: rel, category: fileCategory, size: info.size, mtimeMs: info.mtimeMs });
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
  return found.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.path < b.path ? -1 : 1));
}

/** Every markdown/YAML file, sorted by modification time; only the `limit` newest are read. */
export async function listDocuments(deps: ScanDeps, options: { limit: number; category?: DocCategory }): Promise<WorkspaceDocument[]> {
  const { workspace, config, logger } = deps;
  const documents: WorkspaceDocument[] = [];
  for (const file of await scanDocumentFiles(deps, options.category)) {
    if (documents.length >= options.limit) break;
    const read = await skipRefused(file.path, logger, () =>
      readTextFile(workspace, file.path, { maxBytes: config.docsContentMaxBytes, wordCountMaxBytes: config.wordCountMaxBytes }),
    );
    if (!read) continue;
    documents.push(asDocument(file.name, read));
  }
  return documents;
}

/** The document index (`GET /api/docs/index`): every file's metadata without reading it, and the count per category. */
export async function indexDocuments(deps: ScanDeps, options: { limit: number; category?: DocCategory }): Promise<DocumentIndex> {
  const files = await scanDocumentFiles(deps);
  const counts = Object.fromEntries(DOC_CATEGORIES.map((category) => [category, 0])) as Record<DocCategory, number>;
  for (const file of files) counts[file.category] += 1;
  const matching = options.category ? files.filter((file) => file.category === options.category) : files;
  return {
    total: matching.length,
    counts,
    documents: matching.slice(0, options.limit).map(({ mtimeMs, ...file }) => ({ ...file, modifiedAt: new Date(mtimeMs).toISOString() })),
  };
}

export interface DocumentIndex {
  /** Documents that match (all, or the category's), before the limit. */
  total: number;
  /** Documents per category over the whole workspace. */
  counts: Record<DocCategory, number>;
  documents: { name: string; path: string; category: DocCategory; size: number; modifiedAt: string }[];
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

import type { Logger, WorkspacePaths } from "@muster/plugin";
import type { MemoryConfig } from "../config.ts";
import { listWorkspaceDir, skipRefused } from "./list-dir.ts";
import { readTextFile } from "./text-file.ts";

/** One daily note `memory/YYYY-MM-DD.md` (spec: Memory file). */
export interface DailyMemoryFile {
  name: string;
  /** Workspace-relative (`memory/2026-11-21.md`); absolute paths are never returned. */
  path: string;
  date: string;
  size: number;
  wordCount: number;
  content: string;
  modifiedAt: string;
  truncated: boolean;
  /** A file with a `.md` name that holds binary data; its content is empty. */
  binary: boolean;
}

const DAILY_NAME = /^(\d{4}-\d{2}-\d{2})\.md$/;

/** A `YYYY-MM-DD` that is a real calendar date (no 2026-02-30). */
export function isCalendarDate(date: string): boolean {
  const parsed = new Date(`${date}T00:00:00.000Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === date;
}

/** Daily notes, newest date first, at most `limit` of them. */
export async function listDailyMemory(
  deps: { workspace: WorkspacePaths; config: MemoryConfig; logger: Logger },
  limit: number,
): Promise<DailyMemoryFile[]> {
  const entries = await listWorkspaceDir(deps.workspace, "memory", deps.logger);
  const dated = entries
    .filter((e) => e.isFile() || e.isSymbolicLink())
    .map((e) => ({ name: e.name, date: DAILY_NAME.exec(e.name)?.[1] }))
    .filter((e): e is { name: string; date: string } => e.date !== undefined && isCalendarDate(e.date))
    .sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
  const files: DailyMemoryFile[] = [];
  for (const entry of dated) {
    if (files.length >= limit) break;
    const rel = `memory/${entry.name}`;
    const read = await skipRefused(rel, deps.logger, () =>
      readTextFile(deps.workspace, rel, { maxBytes: deps.config.contentMaxBytes, wordCountMaxBytes: deps.config.wordCountMaxBytes }),
    );
    if (!read) continue;
    files.push({
      name: entry.name,
      path: read.path,
      date: entry.date,
      size: read.size,
      wordCount: read.wordCount,
      content: read.content,
      modifiedAt: read.modifiedAt,
      truncated: read.truncated,
      binary: read.binary,
    });
  }
  return files;
}

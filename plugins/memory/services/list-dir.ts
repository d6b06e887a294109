import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import { MusterError, type Logger, type WorkspacePaths } from "@muster/plugin";

/**
 * Entries of a workspace directory; an absent directory (or one that is a file, or a
 * symlink leaving the workspace) reads as empty so that list endpoints never fail on it.
 */
export async function listWorkspaceDir(workspace: WorkspacePaths, relativeDir: string, logger: Logger): Promise<Dirent[]> {
  let absolute: string;
  try {
    absolute = workspace.resolve(relativeDir);
  } catch (error) {
    if (error instanceof MusterError) {
      logger.warn({ dir: relativeDir, code: error.code }, "workspace directory refused");
      return [];
    }
    throw error;
  }
  try {
    return await readdir(absolute, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return [];
    throw error;
  }
}

/** Runs `read` and turns a refused path (symlink out of the workspace) into `null`, logged. */
export async function skipRefused<T>(path: string, logger: Logger, read: () => Promise<T | null>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof MusterError && error.status < 500) {
      logger.warn({ path, code: error.code }, "workspace file skipped");
      return null;
    }
    throw error;
  }
}

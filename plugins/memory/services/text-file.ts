// Reads a workspace text file with hard bounds: the content is capped (cut on a UTF-8
// character boundary), binary files are recognised instead of decoded, FIFOs and devices
// are never opened for a blocking read, and symlinks leaving the workspace are refused.
import { constants } from "node:fs";
import { open, realpath } from "node:fs/promises";
import { hostErrors, MusterError, type WorkspacePaths } from "@muster/plugin";

export interface TextFile {
  /** Workspace-relative path with `/` separators. */
  path: string;
  size: number;
  modifiedAt: string;
  /** Whitespace-separated words over the first `wordCountMaxBytes` bytes. */
  wordCount: number;
  /** The decoded text, at most `maxBytes` bytes of it; empty for binary files. */
  content: string;
  /** True when `content` holds less than the whole file. */
  truncated: boolean;
  /** True when the file has NUL bytes near its start (git's heuristic): not text. */
  binary: boolean;
}

export interface ReadLimits {
  maxBytes: number;
  wordCountMaxBytes: number;
}

const CHUNK = 64 * 1024;
const BINARY_SNIFF = 8000;

/** Whether a byte is ASCII whitespace (space, \t, \n, \v, \f, \r). */
const isSpace = (b: number) => b === 0x20 || (b >= 0x09 && b <= 0x0d);

/** The longest prefix length `<= max` that does not end inside a UTF-8 sequence. */
export function utf8Boundary(bytes: Uint8Array, max: number): number {
  if (bytes.length <= max) return bytes.length;
  let end = max;
  // Step back over continuation bytes (10xxxxxx) to the start of the cut character.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end -= 1;
  return end;
}

const notFound = (error: unknown) => {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "ENOENT" || code === "ENOTDIR" || code === "ELOOP";
};

/**
 * Reads `relativePath` inside the workspace. Returns null when it does not exist or is not
 * a regular file; throws 400 `PATH_OUTSIDE_WORKSPACE` when it (or a symlink) leaves the workspace.
 */
export async function readTextFile(workspace: WorkspacePaths, relativePath: string, limits: ReadLimits): Promise<TextFile | null> {
  const lexical = workspace.resolve(relativePath);
  let real: string;
  try {
    real = await realpath(lexical);
  } catch (error) {
    if (notFound(error)) return null;
    throw error;
  }
  // Re-check the resolved target (resolve() checked it too, but the file may have been
  // swapped for a symlink since), then open the real path without following a final link.
  if (!workspace.contains(real)) {
    throw hostErrors.PATH_OUTSIDE_WORKSPACE({}, { details: [{ path: "path", reason: `${JSON.stringify(relativePath)} leads outside the workspace` }] });
  }
  let handle;
  try {
    handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if (notFound(error) || (error as NodeJS.ErrnoException).code === "EISDIR") return null;
    throw error;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return null;
    const keep = Buffer.alloc(Math.min(stat.size, limits.maxBytes + 4));
    let kept = 0;
    let words = 0;
    let inWord = false;
    let offset = 0;
    let binary = false;
    const chunk = Buffer.alloc(CHUNK);
    const readUpTo = Math.max(limits.wordCountMaxBytes, keep.length);
    while (offset < readUpTo) {
      const { bytesRead } = await handle.read(chunk, 0, Math.min(CHUNK, readUpTo - offset), offset);
      if (bytesRead === 0) break;
      if (offset < BINARY_SNIFF && chunk.subarray(0, Math.min(bytesRead, BINARY_SNIFF - offset)).includes(0)) {
        binary = true;
        break;
      }
      if (kept < keep.length) kept += chunk.copy(keep, kept, 0, Math.min(bytesRead, keep.length - kept));
      const countable = Math.max(0, Math.min(bytesRead, limits.wordCountMaxBytes - offset));
      for (let i = 0; i < countable; i++) {
        const space = isSpace(chunk[i]!);
        if (!space && !inWord) words += 1;
        inWord = !space;
      }
      offset += bytesRead;
    }
    const modifiedAt = stat.mtime.toISOString();
    const path = workspace.relative(lexical);
    if (binary) return { path, size: stat.size, modifiedAt, wordCount: 0, content: "", truncated: false, binary: true };
    const cut = utf8Boundary(keep.subarray(0, kept), limits.maxBytes);
    return {
      path,
      size: stat.size,
      modifiedAt,
      wordCount: words,
      content: new TextDecoder("utf-8").decode(keep.subarray(0, cut)),
      truncated: cut < stat.size,
      binary: false,
    };
  } finally {
    await handle.close();
  }
}

/**
 * For files the server reads by a fixed name (MEMORY.md, the organisation file): a symlink
 * leading out of the workspace is the workspace's problem, not the client's, so it reads
 * as absent (404) instead of a 400 for a path the request never named.
 */
export function outsideAsMissing(error: unknown): null {
  if (error instanceof MusterError && error.code === "PATH_OUTSIDE_WORKSPACE") return null;
  throw error;
}

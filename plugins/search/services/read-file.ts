import { closeSync, constants, openSync, readSync } from "node:fs";

/**
 * One read buffer for every file the index reads (the text is decoded right away), so a
 * build of 10,000 files does not leave 10,000 buffers for the garbage collector and the
 * allocator. It grows on demand up to the size cap.
 */
let scratch = Buffer.allocUnsafe(64 * 1024);

/**
 * Reads a file of expected size `hint`, refusing more than `max` bytes: at most `max + 1`
 * bytes are read, so a file that grew past the cap after it was listed is recognised
 * without reading it whole. The returned bytes are a view of a shared buffer, valid until
 * the next call (decode them at once).
 *
 * `path` is a real path (links resolved and checked by the caller): a file replaced by a
 * link since that check is refused (ELOOP), never followed out of the workspace.
 */
export function readBoundedSync(path: string, max: number, hint = 4096): Buffer | "too-large" {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    if (scratch.length < Math.min(hint, max) + 1) scratch = Buffer.allocUnsafe(Math.min(hint, max) + 1);
    let length = 0;
    for (;;) {
      if (length === scratch.length) {
        if (scratch.length > max) return "too-large";
        const grown = Buffer.allocUnsafe(Math.min(scratch.length * 2, max + 1));
        scratch.copy(grown, 0, 0, length);
        scratch = grown;
      }
      const bytesRead = readSync(fd, scratch, length, scratch.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return length > max ? "too-large" : scratch.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

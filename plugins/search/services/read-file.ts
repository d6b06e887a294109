import { closeSync, openSync, readSync } from "node:fs";

/**
 * A read buffer that starts at the listed size and grows up to `max + 1` bytes, so a file
 * that grew past the cap after it was listed is recognised as too large without reading
 * it whole, and small files do not each allocate the cap.
 */
class BoundedBuffer {
  private buffer: Buffer;
  length = 0;

  constructor(private readonly max: number, hint: number) {
    this.buffer = Buffer.allocUnsafe(Math.min(Math.max(hint, 0), max) + 1);
  }

  /** The free region to read into, or undefined once more than `max` bytes were read. */
  space(): { buffer: Buffer; offset: number; length: number } | undefined {
    if (this.length === this.buffer.length) {
      if (this.buffer.length > this.max) return undefined;
      const grown = Buffer.allocUnsafe(Math.min(this.buffer.length * 2, this.max + 1));
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
    }
    return { buffer: this.buffer, offset: this.length, length: this.buffer.length - this.length };
  }

  result(): Buffer | "too-large" {
    return this.length > this.max ? "too-large" : this.buffer.subarray(0, this.length);
  }
}

/** Reads a file of expected size `hint` (bytes), refusing more than `max` bytes. */
export function readBoundedSync(path: string, max: number, hint = 4096): Buffer | "too-large" {
  const fd = openSync(path, "r");
  try {
    const target = new BoundedBuffer(max, hint);
    for (let space = target.space(); space; space = target.space()) {
      const bytesRead = readSync(fd, space.buffer, space.offset, space.length, target.length);
      if (bytesRead === 0) break;
      target.length += bytesRead;
    }
    return target.result();
  } finally {
    closeSync(fd);
  }
}

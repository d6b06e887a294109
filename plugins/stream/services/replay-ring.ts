/** One encoded frame kept for replay. */
export interface RingFrame {
  seq: number;
  bytes: Buffer;
}

/**
 * The newest frames, bounded by count and by bytes, for `Last-Event-ID` replay. Sequence
 * numbers are strictly increasing, so "everything after n" is a suffix.
 */
export class ReplayRing {
  private frames: RingFrame[] = [];
  private head = 0;
  private bytes = 0;

  private readonly maxFrames: number;
  private readonly maxBytes: number;
  constructor(maxFrames: number, maxBytes: number) {
    this.maxFrames = maxFrames;
    this.maxBytes = maxBytes;
  }

  push(frame: RingFrame): void {
    if (this.maxFrames === 0 || frame.bytes.length > this.maxBytes) return;
    this.frames.push(frame);
    this.bytes += frame.bytes.length;
    while (this.frames.length - this.head > this.maxFrames || this.bytes > this.maxBytes) {
      this.bytes -= this.frames[this.head]!.bytes.length;
      this.head++;
    }
    // Compact now and then instead of shifting on every push.
    if (this.head > 1024 && this.head * 2 > this.frames.length) {
      this.frames = this.frames.slice(this.head);
      this.head = 0;
    }
  }

  /** Frames with a sequence number greater than `seq`, oldest first. */
  after(seq: number): RingFrame[] {
    let lo = this.head;
    let hi = this.frames.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.frames[mid]!.seq <= seq) lo = mid + 1;
      else hi = mid;
    }
    return this.frames.slice(lo);
  }

  get size(): number {
    return this.frames.length - this.head;
  }
}

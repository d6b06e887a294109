import { setImmediate as yieldToEventLoop } from "node:timers/promises";

/**
 * Long computations on the index (building the postings, warming the term lookups,
 * compacting, validating a saved blob) are written as generators that `yield` every few
 * thousand steps. {@link runNow} runs one to its end at once (tests, small indexes);
 * {@link runSliced} lets the event loop in whenever a slice's budget is spent, so the API
 * keeps answering while a 10,000-file index is built or saved.
 */
export type Steps<T> = Generator<void, T, void>;

/** Synchronous work is cut into slices of about this many milliseconds. */
export const SLICE_MS = 8;

/** Tracks the time since the last pause. */
export class Slicer {
  private since = performance.now();
  private readonly budgetMs: number;
  constructor(budgetMs = SLICE_MS) {
    this.budgetMs = budgetMs;
  }

  /** True when this slice's budget is spent. */
  get due(): boolean {
    return performance.now() - this.since >= this.budgetMs;
  }

  /** Lets pending I/O, timers and requests run, then starts a new slice. */
  async pause(): Promise<void> {
    await yieldToEventLoop();
    this.since = performance.now();
  }

  async maybePause(): Promise<void> {
    if (this.due) await this.pause();
  }
}

export function runNow<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

export async function runSliced<T>(steps: Steps<T>, slicer = new Slicer()): Promise<T> {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    await slicer.maybePause();
  }
}

/** `steps` until `wanted()` turns false (then it ends with `undefined`): work made useless by a newer index stops. */
export function* whileWanted<T>(steps: Steps<T>, wanted: () => boolean): Steps<T | undefined> {
  for (;;) {
    if (!wanted()) return undefined;
    const next = steps.next();
    if (next.done) return next.value;
    yield;
  }
}

/** How many loop iterations run between two checks of the clock. */
export const STEP = 16_384;

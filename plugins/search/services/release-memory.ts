import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

type GcFunction = (options?: { type?: "minor" | "major"; execution?: "sync" | "async"; flavor?: "regular" | "last-resort" }) => void;

let collector: GcFunction | undefined | null;

/**
 * V8's `gc` function without starting Node with `--expose-gc`: the flag is turned on only
 * while one new context is created (V8 installs `gc` in contexts made while it is set), then
 * turned off again, so no other context (vm sandboxes of other plugins) gets it. `null` when
 * this V8 does not give it.
 */
function gcFunction(): GcFunction | null {
  if (collector !== undefined) return collector;
  try {
    setFlagsFromString("--expose-gc");
    const gc: unknown = runInNewContext("typeof gc === 'function' ? gc : undefined");
    collector = typeof gc === "function" ? (gc as GcFunction) : null;
  } catch {
    collector = null;
  } finally {
    setFlagsFromString("--no-expose-gc");
  }
  return collector;
}

/**
 * Gives back to the system the memory V8 kept after a full build. Reading and tokenising
 * 10,000 files grows the young generation to its largest semi-spaces (128 MB reserved for a
 * few MB of live objects) and leaves dead typed arrays (the build's triples, partial indexes)
 * waiting for a major GC; idle time shrinks neither (measured: 350 MB RSS 20 s after a
 * build, new space still 128 MB). A regular major GC does not shrink the young generation
 * either; V8's last-resort collection (memory-reducing full GCs) does: 350 -> about 220 MB.
 * It holds the event loop for one or a few full GCs (about 0.1-0.5 s measured on a busy
 * 2-core machine), so it runs once after a full build, never after a watcher change, and
 * only when the build left memory to give back ({@link buildKeptMemory}).
 *
 * Returns how long it took (ms), or `undefined` when V8 offers no such collection.
 */
export function releaseMemory(): number | undefined {
  const gc = gcFunction();
  if (!gc) return undefined;
  const started = performance.now();
  gc({ type: "major", execution: "sync", flavor: "last-resort" });
  regrowYoungGeneration(gc);
  return performance.now() - started;
}

/**
 * The young generation's capacity the release leaves: V8's new space as a request load keeps
 * it (one minor GC per 16 MB allocated), a tenth of what the build had reserved.
 */
export const YOUNG_GENERATION_BYTES = 16 * 1_048_576;

function youngCapacity(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === "new_space")?.space_size ?? YOUNG_GENERATION_BYTES;
}

/**
 * Whether a build left V8 holding memory worth a release: its young generation grown past
 * twice its working size (a 10,000-file build leaves it at 128 MB; a start on a small
 * workspace, at its working size or less), or the process grown by more than
 * {@link RSS_GROWTH_TO_RELEASE_BYTES} during the build (`grewBy`). Below that the release would give back next to
 * nothing, and it is not free: a memory-reducing GC leaves V8's optimised code of Node's own
 * request path (`process.nextTick`'s tick objects, the HTTP streams' property stores) on
 * slow paths for the rest of the process (measured: 35-37 against 47-49 µs of user CPU
 * per `GET /api/health` answer, the same bare node:http server 20% slower after one; docs/benchmarks.md).
 */
export function buildKeptMemory(grewBy = 0): boolean {
  return youngCapacity() > RELEASE_ABOVE_BYTES || grewBy > RSS_GROWTH_TO_RELEASE_BYTES;
}

/**
 * The other sign of a build that left memory behind: the process grew this much while the
 * build or load ran (the caller measures its RSS before and after). A restart on 10,000 files
 * sometimes left the young generation at its working size yet the process at 300-310 MB,
 * against about 170 MB after a release (bench:workspace, 2026-11-29); a small workspace's
 * build grows it by a few MB at most.
 */
export const RSS_GROWTH_TO_RELEASE_BYTES = 64 * 1_048_576;

/** {@link buildKeptMemory}'s line: twice the young generation's working size. */
export const RELEASE_ABOVE_BYTES = 2 * YOUNG_GENERATION_BYTES;

/**
 * A memory-reducing GC leaves the young generation at its smallest (1 MB), and V8 grows it
 * back only when more than its capacity survives one of its minor GCs. A request load's
 * garbage hardly survives: after a release the server ran a minor GC per 2 MB allocated for
 * 20 s and more (measured under GET /api/health: 300 minor GCs in 6 s where 40 do otherwise,
 * and about a third fewer requests answered). So the release grows it back at once: hold
 * more than its capacity, collect (V8 then grows it about fourfold), let go, and again until
 * it is back to its working size; one regular major GC then frees what those rounds promoted
 * (a regular one does not shrink the young generation). Two rounds, about 0.1 s.
 */
function regrowYoungGeneration(gc: GcFunction): void {
  for (let round = 0; round < MAX_REGROW_ROUNDS; round++) {
    const capacity = youngCapacity();
    if (capacity >= YOUNG_GENERATION_BYTES) break;
    const survivors: number[][] = [];
    for (let bytes = 0; bytes <= capacity; bytes += SURVIVOR_BYTES) survivors.push(new Array<number>(SURVIVOR_BYTES / 8).fill(0));
    gc({ type: "minor", execution: "sync" });
    survivors.length = 0;
  }
  gc({ type: "major", execution: "sync" });
}

/** A bound on the rounds, should a V8 grow its young generation otherwise. */
const MAX_REGROW_ROUNDS = 6;
/** Each survivor array's size: small enough to live in the young generation (large objects have a space of their own). */
const SURVIVOR_BYTES = 8_192;

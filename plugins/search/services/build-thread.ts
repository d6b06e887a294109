// A full build of a large workspace runs in a worker thread (build-thread-worker.ts); the host
// thread only decodes the result. Three reasons, each measured (docs/benchmarks.md, issue 26):
// - Reading and tokenising 10,000 files is about 2 s of CPU. On the host thread it ran in 8 ms
//   slices between requests and the watcher's scan of the same tree; on a second core it runs
//   beside them, and the requests meanwhile wait for nothing but the decode's slices.
// - The build's garbage (its young generation grows to 128 MB) stays in the thread's heap,
//   which is freed when the thread ends: the host's heap needs no memory-reducing GC after it,
//   a GC that leaves Node's request path on V8's slow paths for the rest of the process.
// - The result comes back encoded in one buffer that is moved, not copied, and decodes as a
//   saved index does (~70 ms for 10,000 files, in slices).
// A small workspace builds on the host thread: starting a thread (its modules load from the
// sources, ~100-200 ms of CPU) would cost more than the build.
import { Worker } from "node:worker_threads";
import type { FoundFile } from "../domain/walk.ts";
import type { EncodedIndexMessage, ThreadBuildFiles, ThreadBuildMessage, ThreadBuildSetup } from "./build-protocol.ts";

export type ThreadBuildResult = Extract<ThreadBuildMessage, { kind: "done" }>;

/** The build thread's heap limit: a workspace at `search.maxFiles` fits; a runaway one fails alone (the host thread then builds). */
const THREAD_HEAP_MB = 2048;

const WORKER_URL = new URL("./build-thread-worker.ts", import.meta.url);

export interface BuildThread {
  /** Sends the walk's files (once); resolves with the encoded index and the files' rows, rejects when the thread fails, crashes or is stopped. */
  run(files: FoundFile[]): Promise<ThreadBuildResult>;
  /** Ends the thread (shutdown, or a build that no longer needs it); `run` rejects. */
  stop(): Promise<void>;
}

/**
 * Starts a build thread; it loads its modules (~150-250 ms) while the caller's walk goes on,
 * then builds the files `run` sends. `onSnapshot` receives each partial index it sends (first
 * build only).
 */
export function startBuildThread(setup: ThreadBuildSetup, onSnapshot: (index: EncodedIndexMessage) => void, workerUrl: URL = WORKER_URL): BuildThread {
  const thread = new Worker(workerUrl, { workerData: setup, resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB } });
  const done = new Promise<ThreadBuildResult>((resolve, reject) => {
    thread.on("message", (message: ThreadBuildMessage) => {
      if (message.kind === "snapshot") onSnapshot(message.index);
      else if (message.kind === "done") resolve(message);
      else reject(new Error(`the search build thread failed: ${message.message}`));
    });
    thread.once("error", (error) => reject(new Error(`the search build thread failed: ${error.message}`)));
    // After "done" the thread ends by itself; this then changes nothing.
    thread.once("exit", (code) => reject(new Error(`the search build thread ended (exit code ${code}) before its index was sent`)));
  });
  done.catch(() => undefined); // Seen by run's caller; a thread stopped before run is nobody's failure.
  return {
    run(files) {
      thread.postMessage({ files } satisfies ThreadBuildFiles);
      return done;
    },
    async stop() {
      await thread.terminate();
    },
  };
}

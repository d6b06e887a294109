// A full build of a large workspace runs in a child process (builder-process-main.ts); the
// host only decodes the result. Measured on 10,000 files (docs/benchmarks.md, issue 26):
// - Reading and tokenising them is about 1.3 s of CPU. On the host's thread it ran in 8 ms
//   slices between requests and the watcher's scan of the same tree; on the second core it
//   runs beside them, and requests meanwhile wait only for the decode's slices.
// - All the build's garbage leaves with the process. A worker thread was tried first: it built
//   as fast, but glibc kept 30-60 MB of what the thread had freed in its malloc arena, so the
//   host's resident set after the build was 218-248 MB against 182-190 MB with a process.
// - The file list goes in and the encoded index comes back through files in a private
//   temporary directory (builder-protocol.ts); the index decodes as a saved one does (~70 ms,
//   in slices).
// A small workspace builds on the host's thread: starting a process (~50 ms, its modules
// another ~50 ms from the compile cache, ~170 ms without) would cost more than the build.
import { fork, type ChildProcess } from "node:child_process";
import { getCompileCacheDir } from "node:module";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { FoundFile } from "../domain/walk.ts";
import { FILES_FILE, indexFiles, RESULT_FILE, type BuilderResult, type FromBuilder, type ToBuilder } from "./builder-protocol.ts";

/** The builder's heap limit: a workspace at `search.maxFiles` fits; a runaway one fails alone (the host then builds itself). */
const BUILDER_HEAP_MB = 2048;

const ENTRY = new URL("./builder-process-main.ts", import.meta.url);

/** An encoded index as the builder wrote it. */
export interface EncodedIndexFiles {
  codec: string;
  text: string;
  blob: Uint8Array;
}

export interface BuilderOutput extends BuilderResult {
  index: EncodedIndexFiles;
}

export interface BuilderProcess {
  /** Hands over the walk's files (once); resolves with the encoded index and the files' rows, rejects when the process fails, dies or is stopped. */
  run(files: FoundFile[]): Promise<BuilderOutput>;
  /** Ends the process (shutdown, or a build that no longer needs it) and removes its files; `run` rejects. */
  stop(): Promise<void>;
}

export interface BuilderOptions {
  /** Where its private directory is made (default: the system's temporary directory; a test names its own). */
  tempRoot?: string;
  maxFileBytes: number;
  /** During the first build: how often a partial index is sent (ms); null: never. */
  publishEveryMs: number | null;
  /** Receives each partial index (first build only); the index files are read already. */
  onSnapshot(index: EncodedIndexFiles): void;
  /** The process's entry (a test substitutes one that dies). */
  entry?: URL;
}

/**
 * Starts a builder process; it loads its modules while the caller's walk goes on, then builds
 * the files `run` hands over.
 */
export function startBuilderProcess(options: BuilderOptions): BuilderProcess {
  // Private (0700): the files hold the workspace's words.
  const dir = mkdtempSync(join(options.tempRoot ?? tmpdir(), "muster-search-build-"));
  let child: ChildProcess;
  try {
    child = fork(fileURLToPath(options.entry ?? ENTRY), [], {
      // The host's loader flags (tests run the sources through tsx), not its debugger's port.
      execArgv: [...withoutDebugger(process.execArgv), `--max-old-space-size=${BUILDER_HEAP_MB}`],
      env: builderEnv(),
      stdio: ["ignore", "ignore", "inherit", "ipc"],
    });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const send = (message: ToBuilder) => child.connected && child.send(message);
  send({ kind: "setup", setup: { dir, maxFileBytes: options.maxFileBytes, publishEveryMs: options.publishEveryMs } });
  let ended = false;
  /** The process said it is done or failed: its leaving is expected from then on. */
  let answered = false;
  const done = new Promise<BuilderOutput>((resolve, reject) => {
    child.on("message", (message: FromBuilder) => {
      if (message.kind === "snapshot") void readIndex(dir, message.name, message.codec, { remove: true }).then((index) => ended || options.onSnapshot(index), () => undefined);
      else {
        answered = true;
        if (message.kind === "done") readOutput(dir, message.codec).then(resolve, reject);
        else reject(new Error(`the search builder process failed: ${message.message}`));
      }
    });
    // `on`, not `once`: a process that could not start may report a second error (its pipe).
    child.on("error", (error) => reject(new Error(`the search builder process failed: ${error.message}`)));
    child.once("close", (code, signal) => answered || reject(new Error(`the search builder process ended (${signal ?? `exit code ${code}`}) before its index was written`)));
  }).finally(() => {
    ended = true;
    rmSync(dir, { recursive: true, force: true });
  });
  done.catch(() => undefined); // Seen by run's caller; a process stopped before run is nobody's failure.
  return {
    run(files) {
      writeFileSync(join(dir, FILES_FILE), JSON.stringify(files));
      send({ kind: "build" });
      return done;
    },
    async stop() {
      child.kill();
      await done.catch(() => undefined);
    },
  };
}

/**
 * Only what Node itself reads: the host's secrets (VAULT_KEY and the like) stay with the host.
 * The host's compile cache (core/entry.js turns it on) is shared: with it the builder's modules
 * load in ~45 ms instead of ~170 ms, most of which was stripping their types again.
 */
function builderEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  const nodeOptions = withoutDebugger((process.env.NODE_OPTIONS ?? "").split(/\s+/).filter(Boolean)).join(" ");
  if (nodeOptions) env.NODE_OPTIONS = nodeOptions;
  const cache = getCompileCacheDir();
  if (cache) env.NODE_COMPILE_CACHE = cache;
  return env;
}

/** Reads an encoded index the builder wrote; a partial one is removed once read (they add up to about twice the final index). */
/** Node's flags without the debugger's (a second process on the host's inspector port would fail to start it). */
const withoutDebugger = (flags: string[]) => flags.filter((flag) => !/^--(inspect|debug)/.test(flag));

async function readIndex(dir: string, name: string, codec: string, options: { remove?: boolean } = {}): Promise<EncodedIndexFiles> {
  const files = indexFiles(name);
  // Read on libuv's pool: the host's thread only waits for the callbacks.
  const [text, blob] = await Promise.all([readFile(join(dir, files.text), "utf8"), readFile(join(dir, files.blob))]);
  if (options.remove) await Promise.all([rm(join(dir, files.text), { force: true }), rm(join(dir, files.blob), { force: true })]);
  return { codec, text, blob };
}

async function readOutput(dir: string, codec: string): Promise<BuilderOutput> {
  const [index, result] = await Promise.all([readIndex(dir, "index", codec), readFile(join(dir, RESULT_FILE), "utf8")]);
  return { ...(JSON.parse(result) as BuilderResult), index };
}

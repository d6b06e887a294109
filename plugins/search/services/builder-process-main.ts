// The search index's builder process: reads, parses and tokenises the walk's files and builds
// the index, then writes it encoded for the host (see builder-process.ts for why a process).
// It imports only the search plugin's own domain code, no host module: it runs from the
// sources without the host's module resolution, also under the start bundle.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CompactIndex } from "../domain/compact-index.ts";
import { encodeIndexParts } from "../domain/index-codec.ts";
import { runNow } from "../domain/slicing.ts";
import { FILES_FILE, indexFiles, RESULT_FILE, type BuilderFiles, type BuilderResult, type BuilderSetup, type FromBuilder, type ToBuilder } from "./builder-protocol.ts";
import { loadFile } from "./file-loader.ts";

let setup: BuilderSetup | undefined;
/** This process is leaving after its last message: the host owns the directory from then on. */
let leaving = false;
/** The host that started it: when it dies, this process is re-parented (checked while building). */
const host = process.ppid;

/** The host is gone (stopped or died): its directory is removed, and nothing is waited for any more. */
function abandon(): never {
  if (setup) rmSync(setup.dir, { recursive: true, force: true });
  process.exit(0);
}
/** Messages are sent in order; the process leaves once the last one is out. */
let sent: Promise<void> = Promise.resolve();
const send = (message: FromBuilder) => {
  sent = sent.then(() => new Promise<void>((resolve) => process.send!(message, undefined, undefined, () => resolve())));
};

/** Writes `index` as `name`'s two files; returns its codec. */
function write(index: CompactIndex, name: string): string {
  const { codec, text, data } = encodeIndexParts(index);
  const files = indexFiles(name);
  writeFileSync(join(setup!.dir, files.text), text);
  writeFileSync(join(setup!.dir, files.blob), Buffer.concat(data));
  return codec;
}

function build({ dir, maxFileBytes, publishEveryMs }: BuilderSetup): void {
  const files = JSON.parse(readFileSync(join(dir, FILES_FILE), "utf8")) as BuilderFiles;
  const started = performance.now();
  const builder = CompactIndex.builder();
  const result: BuilderResult = { rows: [], skipped: [], problems: [], readMs: 0, indexMs: 0 };
  let publishedAt = performance.now();
  let published = 0;
  for (const [i, file] of files.entries()) {
    // The build never yields to the event loop, so a host that died is noticed here.
    if (i % 256 === 0 && process.ppid !== host) abandon();
    const loaded = loadFile(file, maxFileBytes, undefined);
    if (loaded.kind === "indexed") {
      builder.add(loaded.document);
      result.rows.push(loaded.row);
      if (loaded.problem) result.problems.push([file.path, loaded.problem]);
    } else if (loaded.kind === "skipped") result.skipped.push([file.path, loaded.reason]);
    // As the host's own build does: a partial index every publishEveryMs, once the documents doubled.
    if (publishEveryMs !== null && performance.now() - publishedAt >= publishEveryMs && builder.documentCount >= Math.max(1, 2 * published)) {
      const name = `snapshot-${builder.documentCount}`;
      send({ kind: "snapshot", name, codec: write(runNow(builder.snapshotSteps()), name) });
      published = builder.documentCount;
      publishedAt = performance.now();
    }
  }
  const finishStarted = performance.now();
  const index = builder.finish();
  result.readMs = finishStarted - started;
  result.indexMs = performance.now() - finishStarted;
  const codec = write(index, "index");
  writeFileSync(join(dir, RESULT_FILE), JSON.stringify(result));
  send({ kind: "done", codec });
}

process.on("message", (message: ToBuilder) => {
  if (message.kind === "setup") {
    setup = message.setup;
    return;
  }
  try {
    build(setup!);
  } catch (error) {
    send({ kind: "failed", message: error instanceof Error ? error.message : String(error) });
  }
  void sent.then(() => {
    leaving = true;
    process.disconnect();
  });
});
// The host went away before the last message was out: it will not read the directory.
process.once("disconnect", () => (leaving ? process.exit(0) : abandon()));

// The search index's build thread: reads, parses and tokenises the walk's files and builds
// the index, then sends it encoded (see build-thread.ts for why a thread). It imports only
// the search plugin's own domain code: no host module, so it needs none of the host's module
// resolution (it runs from the sources, also under the start bundle).
import { parentPort, workerData } from "node:worker_threads";
import { CompactIndex } from "../domain/compact-index.ts";
import { encodeIndexParts } from "../domain/index-codec.ts";
import { runNow } from "../domain/slicing.ts";
import type { EncodedIndexMessage, ThreadBuildFiles, ThreadBuildMessage, ThreadBuildSetup } from "./build-protocol.ts";
import { loadFile } from "./file-loader.ts";
import type { FileRow } from "./index-store.ts";

const setup = workerData as ThreadBuildSetup;
const send = (message: ThreadBuildMessage, transfer: ArrayBuffer[] = []) => parentPort!.postMessage(message, transfer);

/** The index encoded, its blob joined into one buffer of its own (moved to the host thread). */
function encode(index: CompactIndex): EncodedIndexMessage {
  const { codec, text, data } = encodeIndexParts(index);
  const blob = new Uint8Array(data.reduce((sum, part) => sum + part.byteLength, 0));
  let at = 0;
  for (const part of data) {
    blob.set(part, at);
    at += part.byteLength;
  }
  return { codec, text, blob };
}

function build(files: ThreadBuildFiles["files"]): void {
  const started = performance.now();
  const builder = CompactIndex.builder();
  const rows: FileRow[] = [];
  const skipped: [string, "tooLarge" | "binary" | "invalidUtf8"][] = [];
  const problems: [string, string][] = [];
  let publishedAt = performance.now();
  let published = 0;
  for (const file of files) {
    const result = loadFile(file, setup.maxFileBytes, undefined);
    if (result.kind === "indexed") {
      builder.add(result.document);
      rows.push(result.row);
      if (result.problem) problems.push([file.path, result.problem]);
    } else if (result.kind === "skipped") skipped.push([file.path, result.reason]);
    // As the host-thread build does: a partial index every publishEveryMs, once the documents doubled.
    if (setup.publishEveryMs !== null && performance.now() - publishedAt >= setup.publishEveryMs && builder.documentCount >= Math.max(1, 2 * published)) {
      const index = encode(runNow(builder.snapshotSteps()));
      send({ kind: "snapshot", index }, [index.blob.buffer as ArrayBuffer]);
      published = builder.documentCount;
      publishedAt = performance.now();
    }
  }
  const finishStarted = performance.now();
  const index = encode(builder.finish());
  send({ kind: "done", index, rows, skipped, problems, readMs: finishStarted - started, indexMs: performance.now() - finishStarted }, [index.blob.buffer as ArrayBuffer]);
}

// Started while the walk still runs (its modules load meanwhile); the files come once it ends.
parentPort!.once("message", ({ files }: ThreadBuildFiles) => {
  try {
    build(files);
  } catch (error) {
    send({ kind: "failed", message: error instanceof Error ? error.message : String(error) });
  }
});

// `npm run test:openclaw [-- <file filter> ...]`: Muster against a real OpenClaw gateway.
// Installs the pinned gateway into its cache when missing, then (inside a loopback-only
// network namespace when the machine allows one, so nothing can leave it) starts the fake
// model and ONE gateway, runs every `test/openclaw/*.openclaw.ts` uvu file in this process
// in name order (the number prefix orders them; the restart file runs last), stops
// everything, and exits non-zero on any failure. Bounded: a hard cap for the whole run.
// The files load while the gateway starts; the time of each file is printed after it.
//
// Adding a test: a new `NN-<area>.openclaw.ts` beside the others (see docs/testing-with-openclaw.md).
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ensureOpenClaw } from "../../scripts/openclaw-peer/install.ts";
import { startFakeModel, type FakeModel } from "../../scripts/openclaw-peer/fake-model.ts";
import { startGatewayPeer, type GatewayPeer } from "../../scripts/openclaw-peer/gateway-peer.ts";
import { insideNamespace, rerunInLoopbackNamespace } from "../../scripts/openclaw-peer/netns.ts";
import { setPeer } from "./support/peer.ts";
import { scaled } from "../../core/plugin-api/testing/time-scale.ts";

const HERE = import.meta.dirname;
// Stretched by the load like every test bound (a loaded start of the gateway alone takes up to two minutes), at most 40 minutes.
const SUITE_TIMEOUT_MS = Number(process.env.MUSTER_OPENCLAW_SUITE_TIMEOUT_MS ?? Math.min(scaled(20 * 60_000), 40 * 60_000));
const filters = process.argv.slice(2);
const log = (line: string) => console.error(`[test:openclaw] ${line}`);

type Run = () => Promise<[true | string, number, number, number]>;
declare global {
  var UVU_DEFER: number | undefined;
  var UVU_QUEUE: Array<Array<string | null | Run>>;
  var UVU_INDEX: number | undefined;
}

// The install needs the registry, so it happens before entering the namespace.
const { entry, installed } = await ensureOpenClaw(log);
if (!insideNamespace()) {
  if (!installed) log(`openclaw cached (${entry})`);
  const rerun = rerunInLoopbackNamespace(log);
  if (rerun) process.exit(await rerun);
}

process.exitCode = await runSuite();

async function runSuite(): Promise<number> {
  const files = readdirSync(HERE)
    .filter((name) => name.endsWith(".openclaw.ts"))
    .filter((name) => filters.length === 0 || filters.some((f) => name.includes(f)))
    .sort();
  if (files.length === 0) {
    log(`no test file matches ${filters.join(", ")}`);
    return 1;
  }

  let model: FakeModel | undefined;
  let gateway: GatewayPeer | undefined;
  let stopping: Promise<void> | undefined;
  const stopAll = () =>
    (stopping ??= (async () => {
      setPeer(undefined);
      await gateway?.dispose();
      await model?.stop();
    })());
  const interrupted = (signal: NodeJS.Signals) => {
    log(`${signal}: stopping the gateway`);
    void stopAll().finally(() => process.exit(130));
  };
  process.once("SIGINT", interrupted);
  process.once("SIGTERM", interrupted);
  const cap = setTimeout(() => {
    log(`the suite exceeded its cap of ${SUITE_TIMEOUT_MS / 1000} s`);
    if (gateway) console.error(gateway.logTail());
    void stopAll().finally(() => process.exit(1));
  }, SUITE_TIMEOUT_MS);
  cap.unref();

  try {
    model = await startFakeModel();
    const started = performance.now();
    // The files load (seconds of compiling Muster on a busy machine) while the gateway starts.
    const starting = startGatewayPeer({ entry, modelBaseUrl: model.baseUrl }).then((ready) => (gateway = ready));
    starting.catch(() => undefined);
    try {
      await loadFiles(files);
      log(`${files.length} files loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    } finally {
      // Whatever the loading did, the gateway is known to stopAll() once its start settles.
      await starting.catch(() => undefined);
    }
    const ready = await starting;
    log(`gateway ready on ${ready.url} in ${((performance.now() - started) / 1000).toFixed(1)} s; fake model on ${model.baseUrl}`);
    setPeer({ gateway: ready, model });

    const failed = await runFiles();
    if (failed) console.error(`\n${ready.logTail()}`);
    return failed ? 1 : 0;
  } catch (error) {
    console.error(error);
    if (gateway) console.error(gateway.logTail());
    return 1;
  } finally {
    clearTimeout(cap);
    await stopAll();
  }
}

/** Loads the files: each queues its suite with uvu (deferred). */
async function loadFiles(files: string[]): Promise<void> {
  globalThis.UVU_DEFER = 1;
  globalThis.UVU_QUEUE = [];
  for (const [index, file] of files.entries()) {
    globalThis.UVU_INDEX = index;
    globalThis.UVU_QUEUE.push([file]);
    await import(pathToFileURL(join(HERE, file)).href);
  }
}

/** uvu's own `exec()`, except that a suite whose hook threw (uvu reports it as nothing) counts as failed. */
async function runFiles(): Promise<boolean> {
  let total = 0;
  let passed = 0;
  let skipped = 0;
  let failed = false;
  for (const group of globalThis.UVU_QUEUE) {
    const name = group.shift() as string;
    process.stdout.write(`\n${name}\n`);
    const fileStarted = performance.now();
    for (const run of group as Run[]) {
      const [errors, ran, skip, max] = await run();
      total += max;
      passed += ran;
      skipped += skip;
      if (errors !== true) {
        failed = true;
        process.stdout.write(`\n${errors}\n`);
      } else if (ran + skip < max) {
        failed = true;
        process.stdout.write(`\n  a before/after hook of ${name} threw: ${max - ran - skip} test(s) did not run\n`);
      }
    }
    log(`${name}: ${((performance.now() - fileStarted) / 1000).toFixed(1)} s`);
  }
  process.stdout.write(`\n  Total:     ${total}\n  Passed:    ${passed}\n  Skipped:   ${skipped}\n\n`);
  return failed || passed + skipped < total;
}

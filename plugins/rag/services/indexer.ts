import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { MusterError, type EventBus, type Logger, type WorkspacePaths, type WorkspaceWatch } from "@muster/plugin";
import type { RagConfig } from "../config.ts";
import { chunkMarkdown } from "../domain/chunker.ts";
import { providerKey, type EmbeddingProvider } from "../providers/provider.ts";
import { ragErrors } from "../errors.ts";
import type { IndexJob } from "./index-job.ts";
import type { VectorStore } from "./vector-store.ts";
import { listMarkdown, readText, sha256 } from "./workspace-files.ts";

export interface IndexerDeps {
  store: VectorStore;
  workspace: WorkspacePaths;
  events: EventBus;
  logger: Logger;
  config: Readonly<RagConfig>;
  /** The provider in force now; read again at every commit to notice a switch. */
  activeProvider: () => EmbeddingProvider;
  /** Called after every stored or removed file (the search side drops its cached vectors). */
  changed: () => void;
  /** The host watcher's initial scan: a job lists the workspace only after it (see `run`). */
  watch?: Pick<WorkspaceWatch, "scanned">;
  /**
   * Team mode: told the job as it changes (queued, each progress event, its end), after the
   * commits it counts, so the other instances' status shows the primary's job.
   */
  report?: (job: IndexJob) => void;
}

const PROGRESS_EVERY_MS = 200;
const coded = (e: MusterError) => ({ code: e.code, message: e.message });

/**
 * Runs indexing jobs one at a time, off the request path. A job embeds only files whose
 * content hash or provider key differs from what is stored, commits each file in its own
 * transaction, and stops at the first provider error (what is stored stays as it was).
 */
export class Indexer {
  private current?: IndexJob;
  private last?: IndexJob;
  private rerun?: { force: boolean; job: IndexJob };
  private stopped = false;
  private running?: Promise<void>;
  private readonly deps: IndexerDeps;
  constructor(deps: IndexerDeps) {
    this.deps = deps;
  }

  /**
   * Starts a job, or, while one runs, queues the next one (one at most: later requests join
   * it) and returns that queued job, so its id is the one the finished event will carry.
   */
  request(force: boolean, jobId?: string): IndexJob {
    if (this.current) {
      this.rerun ??= { force: false, job: this.newJob(jobId) };
      this.rerun.force ||= force;
      return { ...this.rerun.job };
    }
    return this.begin(this.newJob(jobId), force);
  }

  /** A queued job; `id` the one promised by another instance's request (team mode). */
  newJob(id: string = randomUUID()): IndexJob {
    return { id, status: "queued", done: 0, total: 0, provider: this.deps.activeProvider().id };
  }

  private begin(job: IndexJob, force: boolean): IndexJob {
    this.current = job;
    this.deps.report?.({ ...job });
    this.running = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.run(job, force))
      .finally(() => this.afterJob());
    return { ...job };
  }

  job(): IndexJob | undefined {
    const j = this.current ?? this.last;
    return j && { ...j };
  }

  get busy(): boolean {
    return this.current !== undefined;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.rerun = undefined;
    await this.running;
  }

  private afterJob() {
    this.last = this.current;
    this.current = undefined;
    const next = this.rerun;
    this.rerun = undefined;
    if (next && !this.stopped) this.begin(next.job, next.force);
  }

  private finish(job: IndexJob, status: IndexJob["status"], error?: IndexJob["error"]) {
    job.status = status;
    if (error) job.error = error;
    this.deps.report?.({ ...job });
    this.deps.events.publish("rag.index.finished", { job: { ...job } }, { public: true });
  }

  private async run(job: IndexJob, force: boolean): Promise<void> {
    const { store, workspace, config } = this.deps;
    const provider = this.deps.activeProvider();
    const key = providerKey(provider);
    job.status = "running";
    job.provider = provider.id;
    try {
      // The scan runs while the server serves: a listing taken during it could keep a file
      // deleted before the scan reached its directory, and no event would ever remove it.
      if (this.deps.watch && !(await this.deps.watch.scanned())) return this.finish(job, "cancelled", coded(ragErrors.RAG_STOPPED()));
      const paths = await listMarkdown(workspace.root, config);
      const onDisk = new Set(paths);
      const states = await store.fileStates();
      for (const path of states.keys()) {
        if (!onDisk.has(path)) await store.removeFile(path);
      }
      // Files new or changed since their vectors were stored (all of them when forced), read once here and embedded below.
      const changed: { path: string; content: string; hash: string }[] = [];
      for (const path of paths) {
        const content = await readText(workspace.resolve(path));
        if (content === null) continue;
        const hash = sha256(content);
        const state = states.get(path);
        if (force || !state || state.contentHash !== hash || state.providerKey !== key) changed.push({ path, content, hash });
      }
      job.total = changed.length;
      this.progress(job, true);
      for (const file of changed) {
        if (this.stopped) return this.finish(job, "cancelled", coded(ragErrors.RAG_STOPPED()));
        if (providerKey(this.deps.activeProvider()) !== key) return this.finish(job, "cancelled", coded(ragErrors.RAG_PROVIDER_SWITCHED()));
        const chunks = chunkMarkdown(file.content);
        const vectors: Float32Array[] = [];
        for (let i = 0; i < chunks.length; i += config.batchSize) {
          vectors.push(...(await provider.embed(chunks.slice(i, i + config.batchSize).map((c) => c.text))));
        }
        const absolute = workspace.resolve(file.path);
        let vanished = false;
        const stored = await store.commitFile({ path: file.path, contentHash: file.hash, key, dimensions: provider.dimensions, chunks, vectors }, () => {
          // Checked inside the transaction: the provider in force and the file as it is now.
          if (providerKey(this.deps.activeProvider()) !== key) return false;
          let now: string | null = null;
          try {
            now = readFileSync(absolute, "utf8");
          } catch {
            vanished = true;
            return false;
          }
          return sha256(now) === file.hash;
        });
        if (!stored && vanished) await store.removeFile(file.path);
        if (!stored && providerKey(this.deps.activeProvider()) !== key) return this.finish(job, "cancelled", coded(ragErrors.RAG_PROVIDER_SWITCHED()));
        // A file edited while embedded is left for the next job (the watcher queues one).
        job.done++;
        this.deps.changed();
        this.progress(job, false);
      }
      this.progress(job, true);
      this.finish(job, "done");
    } catch (error) {
      const failure = coded(error instanceof MusterError ? error : ragErrors.RAG_INDEX_FAILED({ reason: error instanceof Error ? error.message : String(error) }));
      this.deps.logger.warn({ code: failure.code, job: job.id }, "indexing job failed");
      this.finish(job, "failed", failure);
    }
  }

  private lastProgress = 0;
  private progress(job: IndexJob, always: boolean) {
    const now = Date.now();
    if (!always && now - this.lastProgress < PROGRESS_EVERY_MS && job.done < job.total) return;
    this.lastProgress = now;
    this.deps.report?.({ ...job });
    this.deps.events.publish("rag.index.progress", { job: { ...job } }, { public: true });
  }
}

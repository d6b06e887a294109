import { clip, MusterError, type DatabaseListener, type Instances, type Logger } from "@muster/plugin";
import type { WorkspaceSearch } from "../../search/tokens.ts";
import { ragErrors } from "../errors.ts";
import { PROVIDER_IDS, providerKey, type EmbeddingProvider, type ProviderId } from "../providers/provider.ts";
import type { SemanticSearch } from "../tokens.ts";
import type { IndexJob } from "./index-job.ts";
import type { Indexer } from "./indexer.ts";
import type { AgentMemoryStatus, AgentMode, MemoryConfigView, ProviderInfo, RagAnswer, SearchMode } from "./rag-types.ts";
import { fuse, rowsById, vectorRanking } from "./ranking.ts";
import type { VectorMatrix, VectorStore } from "./vector-store.ts";

const CONFIG_KEY = "config";
const DEFAULT_SETTINGS: MemoryConfigView = { provider: "hash", enabled: false, agentModes: {} };
/** Candidates taken from each ranker before fusion. */
const CANDIDATES = 50;
const EXCERPT_CHARS = 300;
/** While a job writes, the cached vectors are reloaded at most this often, so queries stay fast. */
const RELOAD_EVERY_MS = 1000;

export interface RagServiceDeps {
  store: VectorStore;
  providers: Record<ProviderId, EmbeddingProvider>;
  indexer: () => Indexer;
  fulltext?: WorkspaceSearch;
  logger: Logger;
  /** Team mode: only the primary instance indexes; the others read what it stores. */
  instances: Pick<Instances, "primary" | "shared">;
}

/**
 * Semantic search and its configuration. In team mode (several instances on one PostgreSQL
 * database, where the vectors live) the deployment's primary instance alone runs indexing
 * jobs, those asked of it and those asked of any other instance (`reindex`, a `configure`
 * that enables or switches the provider: the request waits in `rag_settings` and the primary
 * takes it within its next 2 s sweep, `followTeam`). Every instance answers searches from the
 * stored vectors, reloaded when the primary changed them, and reads the configuration again
 * every 2 s. An instance that becomes primary runs one incremental job (changes made while no
 * live primary watched are indexed then). On SQLite the one process is the primary: as before.
 */
export class RagService implements SemanticSearch {
  private settings: MemoryConfigView = { ...DEFAULT_SETTINGS };
  private cache?: { matrix: VectorMatrix; loadedAt: number };
  private stale = true;
  private wasPrimary = false;
  private vectorsListener?: DatabaseListener;
  /** The stored vectors' version last seen by a non-primary instance (`followTeam`). */
  private vectorsSeen?: string;
  /** Team mode: this instance's job reports (`shareJob`), written in order. */
  private jobWrites: Promise<void> = Promise.resolve();
  private readonly deps: RagServiceDeps;
  constructor(deps: RagServiceDeps) {
    this.deps = deps;
  }

  active(): EmbeddingProvider {
    return this.deps.providers[this.settings.provider as ProviderId];
  }

  /** The stored vectors changed (a file was committed or removed). */
  invalidate(): void {
    this.stale = true;
  }

  async start(): Promise<void> {
    await this.loadSettings();
    // Team mode: the primary's commits wake the others, which reload before their next search
    // (the 2 s sweep's version check stays, for a lost link).
    if (this.deps.instances.shared) this.vectorsListener = await this.deps.store.listenForVectors(() => {
      if (!this.deps.instances.primary()) this.invalidate();
    });
    this.wasPrimary = this.deps.instances.primary();
    if (this.settings.enabled && this.wasPrimary) this.deps.indexer().request(false);
  }

  /** The stored configuration (another instance may have changed it, team mode). */
  private async loadSettings(): Promise<void> {
    const saved = await this.deps.store.setting(CONFIG_KEY);
    const before = this.settings.provider;
    if (saved) this.settings = { ...DEFAULT_SETTINGS, ...(JSON.parse(saved) as Partial<MemoryConfigView>) };
    if (!(PROVIDER_IDS as readonly string[]).includes(this.settings.provider)) this.settings.provider = "hash";
    if (this.settings.provider !== before) this.invalidate();
  }

  /** An indexing job: run here on the primary; elsewhere asked of the primary, with the id its job will carry. */
  private async index(force: boolean): Promise<IndexJob> {
    const indexer = this.deps.indexer();
    if (this.deps.instances.primary()) return indexer.request(force);
    const job = indexer.newJob();
    return { ...job, id: await this.deps.store.requestIndex(job.id, force) };
  }

  async changed(): Promise<void> {
    // Every instance sees a shared workspace's change; the primary indexes it.
    if (!this.settings.enabled || this.settings.agentModes.main === "md" || !this.deps.instances.primary()) return;
    this.deps.indexer().request(false);
  }

  /**
   * Team mode: records the job of this instance (the primary, the only one that indexes) as it
   * changes, so a status through any other instance is dirty while it runs (that instance's
   * own indexer is idle: before, it said "settled" between two of the primary's commits).
   */
  shareJob(job: IndexJob): void {
    this.jobWrites = this.jobWrites
      .then(() => this.deps.store.saveJob(job))
      .catch((error: unknown) => this.deps.logger.warn({ err: error instanceof Error ? error.message : String(error), job: job.id }, "the indexing job could not be shared with the other instances"));
  }

  async followTeam(): Promise<void> {
    await this.loadSettings();
    const primary = this.deps.instances.primary();
    const becamePrimary = primary && !this.wasPrimary;
    this.wasPrimary = primary;
    if (primary) {
      const asked = await this.deps.store.takeIndexRequest((jobId) => this.deps.indexer().newJob(jobId));
      if (!this.settings.enabled) return;
      if (asked) this.deps.indexer().request(asked.force, asked.jobId);
      else if (becamePrimary) this.deps.indexer().request(false);
      return;
    }
    const version = await this.deps.store.vectorsVersion(providerKey(this.active()));
    if (version !== this.vectorsSeen) {
      this.vectorsSeen = version;
      this.invalidate();
    }
  }

  async stop(): Promise<void> {
    await this.vectorsListener?.close();
    await this.deps.indexer().stop();
    // The stopped job's last report, written while the database is still open.
    await this.jobWrites;
    await Promise.all(Object.values(this.deps.providers).map((p) => p.close?.()));
  }

  /**
   * Team mode: the configuration as stored now (one row), before a request reads or changes
   * it: a change made through another instance is answered at once (not after the 2 s sweep),
   * and a change made here starts from it (before, a change here wrote this instance's older
   * copy back: enabling through one instance, then a mode change through the other, disabled it).
   */
  private async current(): Promise<void> {
    if (this.deps.instances.shared) await this.loadSettings();
  }

  private checkAgent(agent: string): void {
    if (!this.settings.enabled) throw ragErrors.RAG_DISABLED();
    if (this.settings.agentModes[agent] === "md") throw ragErrors.RAG_AGENT_MD_ONLY({ agent });
  }

  async search(q: string, options: { agent: string; limit: number; mode: SearchMode }): Promise<RagAnswer> {
    await this.current();
    this.checkAgent(options.agent);
    const provider = this.active();
    const answer: RagAnswer = { ok: true, query: q, agent: options.agent, provider: provider.id, mode: options.mode, results: [] };
    // Nothing to match in a query of punctuation only: an empty answer, not an error.
    if (!/[\p{L}\p{N}]/u.test(q)) return answer;
    const matrix = await this.matrix(providerKey(provider));
    // Asked together with the query's embedding, so the worker answers both in one turn of its queue.
    const words = options.mode === "hybrid" ? this.wordMatch(provider, q, matrix) : Promise.resolve([]);
    words.catch(() => {}); // awaited below unless the embedding fails first
    let vector: { row: number; score: number }[] = [];
    if (options.mode !== "fulltext") {
      try {
        const [qv] = await provider.embed([q], { urgent: true });
        vector = vectorRanking(matrix, qv!, CANDIDATES);
      } catch (error) {
        if (!(error instanceof MusterError)) throw error;
        // A provider that is down must not take search down with it: full-text ranks only.
        answer.fallback = { code: error.code, message: error.message };
        this.deps.logger.warn({ code: error.code }, "query embedding failed; answering from full text");
      }
    }
    const fulltext = options.mode === "vector" && !answer.fallback ? [] : await this.fulltext(q);
    if (vector.length === 0) {
      // No vectors to fuse (provider down, nothing indexed under it yet, or `fulltext` mode):
      // full-text ranks alone, each path shown by its first stored chunk.
      const first = await this.deps.store.firstChunks(fulltext.map((f) => f.path));
      answer.results = fulltext.slice(0, options.limit).map(({ path, rank }) => {
        const c = first.get(path);
        return { path, startLine: c?.startLine ?? 1, endLine: c?.endLine ?? 1, score: Math.round((1 / (60 + rank)) * 1e6) / 1e6, excerpt: c ? clip(c.text, EXCERPT_CHARS) : "" };
      });
      return answer;
    }
    const ranked = options.mode === "vector" ? vector : fuse(matrix, vector, fulltext, await words);
    const top = ranked.slice(0, options.limit);
    const rows = await this.deps.store.chunks(top.map((t) => matrix.ids[t.row]!));
    answer.results = top.flatMap(({ row, score }) => {
      const c = rows.get(matrix.ids[row]!);
      return c ? [{ path: c.path, startLine: c.startLine, endLine: c.endLine, score: Math.round(score * 1e6) / 1e6, excerpt: clip(c.text, EXCERPT_CHARS) }] : [];
    });
    return answer;
  }

  /** The provider's soft word-match ranking as matrix rows; none when it has none or fails (the other rankers still answer). */
  private async wordMatch(provider: EmbeddingProvider, q: string, matrix: VectorMatrix): Promise<{ row: number }[]> {
    if (!provider.wordMatch) return [];
    try {
      const corpus = { ids: matrix.ids, settled: !this.deps.indexer().busy, texts: async (ids: number[]) => new Map([...(await this.deps.store.chunks(ids))].map(([id, c]) => [id, c.text])) };
      const rows = rowsById(matrix);
      return (await provider.wordMatch(q, corpus, CANDIDATES)).flatMap(({ id }) => (rows.has(id) ? [{ row: rows.get(id)! }] : []));
    } catch (error) {
      if (!(error instanceof MusterError)) throw error;
      this.deps.logger.warn({ code: error.code }, "word matching failed; fusing vector and full-text ranks only");
      return [];
    }
  }

  private async fulltext(q: string): Promise<{ path: string; rank: number }[]> {
    if (!this.deps.fulltext) return [];
    try {
      return await this.deps.fulltext.rank(q, { limit: CANDIDATES });
    } catch (error) {
      this.deps.logger.warn({ err: error instanceof Error ? error.message : String(error) }, "full-text ranking failed; vector ranks only");
      return [];
    }
  }

  private async matrix(key: string): Promise<VectorMatrix> {
    const c = this.cache;
    const fresh = c && c.matrix.key === key && (!this.stale || (this.deps.indexer().busy && Date.now() - c.loadedAt < RELOAD_EVERY_MS));
    if (fresh) return c.matrix;
    this.stale = false;
    const matrix = await this.deps.store.matrix(key);
    this.cache = { matrix, loadedAt: Date.now() };
    return matrix;
  }

  async reindex(options: { agent: string; force: boolean }): Promise<IndexJob> {
    await this.current();
    this.checkAgent(options.agent);
    return this.index(options.force);
  }

  providerList(): ProviderInfo[] {
    return PROVIDER_IDS.map((id) => {
      const p = this.deps.providers[id];
      const reason = p.unavailableReason();
      return { id, name: p.name, available: reason === null, model: p.model, dimensions: p.dimensions, ...(reason ? { reason } : {}) };
    });
  }

  async config() {
    await this.current();
    const provider = this.active();
    // Busy before or after the counts: a job that ended while they were read may have changed them.
    const busyBefore = this.deps.indexer().busy;
    const counts = await this.deps.store.counts(providerKey(provider));
    const job = this.deps.indexer().job();
    // Team mode, another instance (it never indexes): the counts follow the primary's job, as
    // of the counts' moment. `job` stays this instance's own (docs/team.md).
    const elsewhere = this.deps.instances.shared && !this.deps.instances.primary();
    const counted = elsewhere ? (counts.primaryJob ?? undefined) : job;
    const busy = elsewhere ? counted?.status === "queued" || counted?.status === "running" : busyBefore || this.deps.indexer().busy;
    const dirty = counts.indexed < counts.files || counts.requested || busy || counted?.status === "failed";
    const agentIds = ["main", ...Object.keys(this.settings.agentModes).filter((a) => a !== "main").sort()];
    const agents: AgentMemoryStatus[] = agentIds.map((agentId) => ({
      agentId,
      provider: provider.id,
      indexed: counts.indexed,
      total: Math.max(counts.files, counted?.total ?? 0),
      chunks: counts.chunks,
      dirty,
      vectorReady: this.settings.enabled && counts.chunks > 0,
      mode: this.settings.agentModes[agentId] ?? "default",
    }));
    return { config: this.view(), agents, providers: this.providerList(), job: job ?? null };
  }

  async configure(change: { provider?: string; enabled?: boolean; agentModes?: Record<string, AgentMode> }): Promise<MemoryConfigView> {
    await this.current();
    const next: MemoryConfigView = { ...this.settings, agentModes: { ...this.settings.agentModes } };
    if (change.provider !== undefined) {
      if (!(PROVIDER_IDS as readonly string[]).includes(change.provider)) throw ragErrors.RAG_PROVIDER_UNKNOWN({ provider: change.provider, known: PROVIDER_IDS.join(", ") });
      const reason = this.deps.providers[change.provider as ProviderId].unavailableReason();
      if (reason) throw ragErrors.RAG_PROVIDER_UNAVAILABLE({ provider: change.provider, reason });
      next.provider = change.provider;
    }
    if (change.enabled !== undefined) next.enabled = change.enabled;
    for (const [agent, mode] of Object.entries(change.agentModes ?? {})) {
      // `default` inherits the global setting, so it is stored as the absence of an override.
      if (mode === "default") delete next.agentModes[agent];
      else next.agentModes[agent] = mode;
    }
    const providerChanged = next.provider !== this.settings.provider;
    await this.deps.store.saveSetting(CONFIG_KEY, JSON.stringify(next));
    this.settings = next;
    if (providerChanged) this.invalidate();
    // A switch re-indexes under the new key; a running job notices and cancels at its next commit.
    if (next.enabled && (providerChanged || change.enabled)) await this.index(false);
    return this.view();
  }

  private view(): MemoryConfigView {
    return { provider: this.settings.provider, enabled: this.settings.enabled, agentModes: { ...this.settings.agentModes } };
  }
}

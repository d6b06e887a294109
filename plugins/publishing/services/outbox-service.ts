import { randomUUID } from "node:crypto";
import type { EventBus, Instances, Logger } from "@muster/plugin";
import type { Notifier } from "../../notifications/tokens.ts";
import type { VaultSecretReader } from "../../vault/tokens.ts";
import { PlatformFailure, type PlatformHttp } from "../platforms/platform-http.ts";
import type { SecretSource } from "../platforms/platform.ts";
import type { Outbox, Platforms } from "../tokens.ts";
import { toDraftRecord, type DraftStatus, type PublishResult } from "./draft-record.ts";
import type { DraftStore } from "./draft-store.ts";
import { toOutboxRecord, type OutboxEntryRecord, type OutboxStatus } from "./outbox-record.ts";
import type { OutboxStore, Settled } from "./outbox-store.ts";
import { publishPayload, type PublishPayload } from "./publish-payload.ts";
import { redactPlatformError } from "./redact-error.ts";

export interface RetryPolicy {
  maxAttempts: number;
  retryBaseDelayMs: number;
  maxRetryDelayMs: number;
  maxRetryAfterMs: number;
}

export interface OutboxServiceDeps {
  store: OutboxStore;
  drafts: DraftStore;
  platforms: Platforms;
  http: PlatformHttp;
  vault: VaultSecretReader;
  events: EventBus;
  notifications: Notifier;
  logger: Logger;
  retry: RetryPolicy;
  /** Which instances are alive: only their sends in flight are left alone (team mode). */
  instances?: Instances;
}

/** A credential read; a locked vault fails the entry as not sent (adapters read credentials before any request). */
function vaultRead(secrets: SecretSource, name: string): string | null {
  try {
    return secrets(name);
  } catch (error) {
    throw new PlatformFailure("failed", `the vault could not be read (${(error as { code?: string }).code ?? "error"}); nothing was sent`);
  }
}

/** Timers are re-armed at least this often, so a far schedule never overflows setTimeout's 2^31-1 ms. */
const MAX_TIMER_MS = 60 * 60_000;
/** An entry due this long ago was left by an instance that died: one team-mode sweep interval (2 s). */
const OVERDUE_MS = 2_000;

/**
 * The outbox (DESIGN §14.10): an approved publish becomes one entry per platform, sent by
 * one scheduler. A send is claimed atomically (approved → publishing), so no entry is ever
 * sent by two runners; 429 and 5xx put it back with a due time (Retry-After, else capped
 * exponential backoff) until `maxAttempts`; a lost answer to the post request settles it as
 * `unknown`, and nothing ever re-sends an `unknown` entry. Due times are stored, so
 * schedules and pending retries survive a restart.
 */
export class OutboxService implements Outbox {
  private readonly deps: OutboxServiceDeps;
  private readonly inFlight = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private stopSweep: () => void = () => {};
  private stopped = true;
  constructor(deps: OutboxServiceDeps) {
    this.deps = deps;
  }

  private now(): string {
    return new Date().toISOString();
  }

  async enqueueApproved(payload: PublishPayload, approval: { approvalId: string; decidedBy: string }): Promise<OutboxEntryRecord[]> {
    const p = publishPayload.parse(payload);
    const now = this.now();
    const dueAt = p.scheduledAt && p.scheduledAt > now ? p.scheduledAt : now;
    const rows = p.platforms.map((platform) => ({
      id: randomUUID(),
      approvalId: approval.approvalId,
      draftId: p.draftId,
      platform,
      title: p.title,
      text: p.text,
      media: JSON.stringify(p.media),
      dueAt,
      decidedBy: approval.decidedBy,
      createdAt: now,
    }));
    const added = await this.deps.store.enqueue(rows, now);
    const entries = (await this.deps.store.list({ approvalId: approval.approvalId, limit: 100 })).map(toOutboxRecord);
    if (added === 0) {
      this.deps.logger.warn({ approvalId: approval.approvalId }, "publish approval executed again; its entries were queued already, nothing new");
      return entries;
    }
    for (const entry of entries) this.deps.events.publish("publishing.outbox.queued", entry, { public: true });
    if (p.draftId) await this.syncDraft(p.draftId, approval.approvalId, p.scheduledAt);
    this.kick();
    return entries;
  }

  async list(filter: { approvalId?: string; draftId?: string; status?: OutboxStatus; limit: number }): Promise<OutboxEntryRecord[]> {
    return (await this.deps.store.list(filter)).map(toOutboxRecord);
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.settleInterrupted();
    // Team mode: an instance killed mid-send stops its heartbeat; another settles its sends.
    // An entry queued (or re-queued for a retry) by another instance is armed only there: if
    // that instance dies, its timer dies with it, so each sweep also sends what is overdue.
    this.stopSweep = this.deps.instances?.everyWhileShared("outbox sweep for dead instances", () => this.sweepShared()) ?? (() => {});
    await this.tick();
  }

  /**
   * Team mode, every 2 s (`instances.everyWhileShared`): settles dead instances' sends, then sends entries
   * overdue by a sweep interval. The instance that queued an entry claims it on time; one
   * that has been due that long was left by an instance that died (its claim still picks one
   * sender). Without this, a scheduled or retried entry of a dead instance waited until
   * another instance restarted.
   */
  private async sweepShared(): Promise<void> {
    await this.settleInterrupted();
    if (!this.stopped) await this.sendDue(new Date(Date.now() - OVERDUE_MS).toISOString());
  }

  /** Sends a previous or dead process left in flight become `unknown` (never re-sent), each reported. */
  private async settleInterrupted(): Promise<void> {
    const live = (await this.deps.instances?.liveIds()) ?? [];
    for (const row of await this.deps.store.markInterrupted(this.now(), live)) {
      const entry = toOutboxRecord(row);
      this.deps.logger.warn({ outboxId: entry.id, platform: entry.platform }, "a send was interrupted by a stop; recorded unknown, not re-sent");
      this.report("unknown", entry);
      if (entry.draftId) await this.syncDraft(entry.draftId, entry.approvalId);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopSweep();
    clearTimeout(this.timer);
    // A send in flight ends within the request timeout; its outcome is recorded before the database closes.
    await Promise.allSettled([...this.inFlight.values()]);
  }

  /** Runs what is due now, off the caller's path. */
  private kick(): void {
    setImmediate(() => void this.tick().catch((error: unknown) => this.deps.logger.error({ err: error }, "outbox run failed")));
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    await this.sendDue(this.now());
    await this.arm();
  }

  /** Starts a send of every entry due by `upTo` (each only if its claim wins), off the caller's path. */
  private async sendDue(upTo: string): Promise<void> {
    for (const id of await this.deps.store.dueIds(upTo)) {
      if (this.inFlight.has(id)) continue;
      const run = this.send(id)
        .catch((error: unknown) => this.deps.logger.error({ err: error, outboxId: id }, "outbox send failed unexpectedly"))
        .finally(() => this.inFlight.delete(id));
      this.inFlight.set(id, run);
    }
  }

  /** One timer, for the earliest queued entry. */
  private async arm(): Promise<void> {
    clearTimeout(this.timer);
    if (this.stopped) return;
    const next = await this.deps.store.nextDueAt();
    if (next === null) return;
    const delay = Math.min(Math.max(0, Date.parse(next) - Date.now()), MAX_TIMER_MS);
    this.timer = setTimeout(() => void this.tick().catch((error: unknown) => this.deps.logger.error({ err: error }, "outbox run failed")), delay);
    this.timer.unref();
  }

  /** Sends one entry if this call wins its claim (a conditional update: of racing ticks or instances one wins; the tick's in-flight map spares the losers' reads). */
  private async send(id: string): Promise<void> {
    if (!(await this.deps.store.claim(id, this.now()))) return;
    const row = (await this.deps.store.get(id))!;
    const adapter = this.deps.platforms.get(row.platform);
    let outcome: Settled | { retryAt: string; error: string };
    let credential: string | null = null;
    try {
      if (!adapter) throw new PlatformFailure("failed", `No platform "${row.platform}" is loaded any more; nothing was sent`);
      credential = vaultRead(this.deps.platforms.secrets, adapter.secret);
      const post = await adapter.publish(
        { title: row.title, text: row.text, media: JSON.parse(row.media) },
        { secrets: (name) => vaultRead(this.deps.platforms.secrets, name), http: this.deps.http, entryId: row.id },
      );
      outcome = { status: "published", postId: post.postId, postUrl: post.postUrl, error: null };
    } catch (error) {
      const failure = error instanceof PlatformFailure ? error : new PlatformFailure("unknown", "the adapter failed unexpectedly after the send began; the post may or may not exist");
      if (!(error instanceof PlatformFailure)) this.deps.logger.error({ outboxId: id, platform: row.platform, errName: (error as Error)?.name }, "platform adapter threw");
      const message = redactPlatformError(failure.message, adapter?.secret ?? "", credential, (t) => this.deps.vault.redact(t));
      outcome = this.afterFailure(failure, message, row.attempts);
    }
    if ("retryAt" in outcome) {
      if (await this.deps.store.requeue(id, outcome.retryAt, outcome.error, this.now())) {
        this.deps.logger.info({ outboxId: id, platform: row.platform, retryAt: outcome.retryAt, attempts: row.attempts }, "platform asked to retry; re-queued");
        this.deps.events.publish("publishing.outbox.queued", toOutboxRecord((await this.deps.store.get(id))!), { public: true });
      }
    } else if (await this.deps.store.settle(id, outcome, this.now())) {
      this.report(outcome.status, toOutboxRecord((await this.deps.store.get(id))!));
    }
    if (row.draftId) await this.syncDraft(row.draftId, row.approvalId);
    await this.arm();
  }

  private afterFailure(failure: PlatformFailure, error: string, attempts: number): Settled | { retryAt: string; error: string } {
    const settled = (status: Settled["status"], text: string): Settled => ({ status, postId: null, postUrl: null, error: text });
    if (failure.kind !== "retry") return settled(failure.kind, error);
    const { maxAttempts, retryBaseDelayMs, maxRetryDelayMs, maxRetryAfterMs } = this.deps.retry;
    if (attempts >= maxAttempts) return settled("failed", `${error} (gave up after ${attempts} attempts)`);
    if (failure.retryAfterMs !== null && failure.retryAfterMs > maxRetryAfterMs) {
      return settled("failed", `${error} (Retry-After asks for ${Math.ceil(failure.retryAfterMs / 1000)} s, more than the ${Math.ceil(maxRetryAfterMs / 1000)} s allowed)`);
    }
    const delay = failure.retryAfterMs ?? Math.min(retryBaseDelayMs * 2 ** (attempts - 1), maxRetryDelayMs);
    return { retryAt: new Date(Date.now() + delay).toISOString(), error };
  }

  private report(status: Settled["status"], entry: OutboxEntryRecord): void {
    this.deps.events.publish(`publishing.outbox.${status}`, entry, { public: true });
    if (status === "published") {
      this.deps.logger.info({ outboxId: entry.id, platform: entry.platform, postId: entry.postId }, "published");
      return;
    }
    this.deps.logger.warn({ outboxId: entry.id, platform: entry.platform, status, error: entry.error }, "publishing did not succeed");
    try {
      this.deps.notifications.create({
        type: "publishing",
        title: status === "unknown" ? `Check ${entry.platform}: the post may or may not have been published` : `Publishing to ${entry.platform} failed`,
        body: entry.error,
        priority: "high",
      });
    } catch (error) {
      this.deps.logger.error({ err: error, outboxId: entry.id }, "publishing notification failed");
    }
  }

  /** A draft follows its publish approval's entries: status and per-platform results. */
  private async syncDraft(draftId: string, approvalId: string, scheduledAt?: string | null): Promise<void> {
    const entries = await this.deps.store.list({ approvalId, limit: 100 });
    const results: PublishResult[] = entries.map((e) => ({ platform: e.platform, outboxId: e.id, status: e.status, postId: e.postId, postUrl: e.postUrl, error: e.error }));
    const now = this.now();
    let status: DraftStatus;
    if (entries.every((e) => e.status === "approved" && e.attempts === 0)) status = entries.every((e) => e.dueAt > now) ? "scheduled" : "approved";
    else if (entries.some((e) => e.status === "approved" || e.status === "publishing")) status = "publishing";
    else status = entries.every((e) => e.status === "published") ? "published" : "failed";
    if (await this.deps.drafts.setOutcome(draftId, approvalId, status, JSON.stringify(results), scheduledAt, now)) {
      const row = await this.deps.drafts.get(draftId);
      if (row) this.deps.events.publish("publishing.draft.updated", toDraftRecord(row), { public: true });
    }
  }
}

// Team mode (issue 25): several instances on one PostgreSQL database, each with its own SSE
// clients. An event published on any instance must reach the clients of every instance, in
// one order, with ids that mean the same everywhere (a client that reconnects to another
// instance with `Last-Event-ID` misses nothing). So no instance streams its own events
// directly: each writes them to `stream_frames`, which numbers them, and every instance
// (itself included) streams what it reads back from there, woken by NOTIFY.
//
// Order: the inserts of all instances take one advisory lock until they commit, so the ids
// become visible in increasing order and "every frame after the last one read" never skips
// one that commits later with a smaller id. The NOTIFY carries nothing: it is only a wake-up
// (a payload is limited to 8,000 bytes, a frame is not), and after a lost listening link the
// listener reads from its last id again, so no wake-up is needed for correctness.
import { randomBytes } from "node:crypto";
import { answerAfter, atomically, defineStore, IdFollower, type Database, type DatabaseListener, type EventBus, type Instances, type Logger } from "@muster/plugin";
import { StreamFrame } from "../entities/stream-frame.ts";
import type { StreamConfig } from "../config.ts";
import { serialiseMessage, type StreamMessage } from "./frames.ts";
import type { SseHub } from "./sse-hub.ts";

const CHANNEL = "stream_frames";
/** The advisory lock that orders every instance's inserts. */
const ORDER_LOCK = "stream:frames";
/** Rows read per query when catching up. */
const READ_BATCH = 500;
/** Messages written per transaction. */
const WRITE_BATCH = 200;
/** Frames kept in the table beyond the replay size, for an instance that reads late. */
const KEEP_MARGIN = 5_000;
/** After this many frames written by this instance, the oldest are pruned. */
const PRUNE_EVERY = 500;
/** A failed write is tried again this many times (a restarting server), then dropped and logged. */
const WRITE_ATTEMPTS = 5;
const RETRY_MS = 500;

interface FrameRow {
  id: number;
  message: string;
}

/** Reads of `stream_frames` in the database's order; the ordered insert is an atomic step (below). */
const frames = defineStore(StreamFrame, { orderBy: { id: "asc" }, mapRows: false });

export interface TeamRelayDeps {
  db: Database;
  instances: Instances;
  hub: SseHub;
  logger: Logger;
  config: StreamConfig;
}

export class TeamStreamRelay {
  private pending: string[] = [];
  /** Messages queued and messages written (or given up) so far, and who waits for a count. */
  private queued = 0;
  private settled = 0;
  private waiters: { upTo: number; resolve: () => void }[] = [];
  private writing = false;
  private sinceLastPrune = 0;
  private stopped = false;
  private listener: DatabaseListener | undefined;
  private readonly deps: TeamRelayDeps;
  private readonly frames = frames.on(() => this.deps.db);
  /** Streams every frame after the last one read, in id order (the next wake-up retries a failed read). */
  private readonly follower = new IdFollower<FrameRow>({
    readAfter: (afterId, limit) => this.frames.list({ fields: ["id", "message"], where: { id: { $gt: afterId } }, limit }),
    deliver: (row, id) => this.deps.hub.relay(id, row.message),
    batch: READ_BATCH,
    stopped: () => this.stopped,
    onReadFailed: (error) => this.deps.logger.warn({ err: error }, "stream frames could not be read; retried at the next notification"),
  });

  constructor(deps: TeamRelayDeps) {
    this.deps = deps;
  }

  /**
   * Before listening: the deployment's origin and the newest frames (the replay ring of an
   * instance that just started holds what the others sent before it), then LISTEN.
   * Returns the stop function.
   */
  async start(events: EventBus): Promise<() => Promise<void>> {
    const { db, hub, config } = this.deps;
    const candidate = randomBytes(4).toString("hex");
    const { origin, top, newest } = await atomically(db, function* (tx) {
      yield* tx.run(`INSERT INTO stream_origin (id, "bootId") VALUES (1, ?) ON CONFLICT (id) DO NOTHING`, [candidate]);
      const row = yield* tx.get<{ bootId: string }>(`SELECT "bootId" FROM stream_origin WHERE id = 1`);
      const max = yield* tx.get<{ top: number | string | null }>(`SELECT MAX(id) AS top FROM stream_frames`);
      const rows = yield* tx.all<FrameRow>(`SELECT id, message FROM stream_frames ORDER BY id DESC LIMIT ?`, [config.replaySize]);
      return { origin: row!.bootId, top: Number(max?.top ?? 0), newest: rows.reverse() };
    });
    hub.adopt(origin, newest.length ? Number(newest[0]!.id) - 1 : top);
    for (const row of newest) hub.relay(Number(row.id), row.message);
    hub.adopt(origin, top);
    this.follower.lastId = top;
    const off = hub.attach(events, (message) => this.publish(message));
    this.listener = await db.listen!(CHANNEL, () => void this.follower.read());
    return async () => {
      this.stopped = true;
      if (!this.writing) this.advance(this.queued - this.settled);
      off();
      await this.listener?.close();
    };
  }

  /** Queues a message for the table; written in call order, a batch per transaction. */
  private publish(message: StreamMessage): void {
    // Every instance watches the shared workspace: the primary alone streams its changes.
    if (this.stopped || (message.type === "file_change" && !this.deps.instances.primary())) return;
    try {
      this.pending.push(serialiseMessage(message));
    } catch (error) {
      this.deps.logger.warn({ err: error, type: message.type }, "stream message not serialisable; skipped");
      return;
    }
    const mine = ++this.queued;
    // The request that published it answers once it is numbered: a client's next request, on
    // any instance, publishes after it (the frames keep the order of the requests).
    answerAfter(() => new Promise<void>((resolve) => this.waiters.push({ upTo: mine, resolve })));
    if (!this.writing) void this.write();
  }

  /** `count` more messages are written or given up: wakes who waited for them. */
  private advance(count: number): void {
    this.settled += count;
    const ready = this.waiters.filter((w) => w.upTo <= this.settled);
    this.waiters = this.waiters.filter((w) => w.upTo > this.settled);
    for (const w of ready) w.resolve();
  }

  private async write(): Promise<void> {
    this.writing = true;
    try {
      while (this.pending.length > 0 && !this.stopped) {
        const batch = this.pending.splice(0, WRITE_BATCH);
        await this.insert(batch);
        this.advance(batch.length);
        this.sinceLastPrune += batch.length;
        if (this.sinceLastPrune >= PRUNE_EVERY) await this.prune();
      }
    } finally {
      this.writing = false;
      // Stopped with messages unwritten: nobody waits for them any more.
      if (this.stopped) this.advance(this.queued - this.settled);
    }
  }

  private async insert(batch: string[]): Promise<void> {
    const at = new Date().toISOString();
    for (let attempt = 1; ; attempt++) {
      try {
        await atomically(this.deps.db, function* (tx) {
          yield* tx.lock(ORDER_LOCK);
          for (const message of batch) yield* tx.run(`INSERT INTO stream_frames (message, "createdAt") VALUES (?, ?)`, [message, at]);
          yield* tx.get(`SELECT pg_notify(?, '')`, [CHANNEL]);
        });
        return;
      } catch (error) {
        if (attempt >= WRITE_ATTEMPTS || this.stopped) {
          this.deps.logger.warn({ err: error, frames: batch.length }, "stream frames could not be stored; not streamed");
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS * attempt));
      }
    }
  }

  private async prune(): Promise<void> {
    this.sinceLastPrune = 0;
    const below = this.follower.lastId - this.deps.config.replaySize - KEEP_MARGIN;
    if (below <= 0) return;
    await atomically(this.deps.db, function* (tx) {
      yield* tx.run(`DELETE FROM stream_frames WHERE id <= ?`, [below]);
    }).catch((error: unknown) => this.deps.logger.warn({ err: error }, "old stream frames could not be pruned"));
  }
}

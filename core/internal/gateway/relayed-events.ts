// The holder's gateway events (and its connection's state changes) for every other instance
// (leased-link.ts): the holder appends them to muster_gateway_events in the order its
// connection received them, a batch per transaction; every other instance reads every row
// after the last one it read, in id order, woken by NOTIFY (and after a lost listening link,
// reads from its last id again, so no wake-up is needed for correctness).
import type { Logger } from "pino";
import { IdFollower } from "../../plugin-api/id-follower.ts";
import type { LinkTables } from "./lease-tables.ts";

const READ_BATCH = 500;
const WRITE_BATCH = 200;
/** Old events are pruned after this many writes. */
const PRUNE_EVERY = 500;

export class EventRelay {
  private queue: { event: string; payload: string }[] = [];
  private writing: Promise<void> | undefined;
  private sincePrune = 0;
  private readonly tables: LinkTables;
  private readonly me: string;
  private readonly logger: Logger;
  private readonly follower: IdFollower<{ id: number; event: string; payload: string }>;

  constructor(tables: LinkTables, me: string, logger: Logger, deliver: (event: string, payload: unknown) => void) {
    this.tables = tables;
    this.me = me;
    this.logger = logger;
    this.follower = new IdFollower({
      readAfter: (afterId, limit) => tables.readEvents(afterId, limit),
      deliver: (row) => deliver(row.event, JSON.parse(row.payload) as unknown),
      batch: READ_BATCH,
      onReadFailed: (error) => logger.warn({ err: error }, "gateway events could not be read; read again at the next wake-up"),
    });
  }

  /** Holder: queues an event for the table; written in call order. */
  write(event: string, payload: unknown): void {
    let text: string;
    try {
      text = JSON.stringify(payload ?? null);
    } catch (error) {
      this.logger.warn({ err: error, event }, "a gateway event could not be serialised for the other instances; not relayed");
      return;
    }
    this.queue.push({ event, payload: text });
    this.writing ??= this.flush().finally(() => (this.writing = undefined));
  }

  /** Resolves once what was queued so far is written (or dropped). */
  async idle(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, WRITE_BATCH);
      try {
        await this.tables.writeEvents(this.me, batch);
      } catch (error) {
        this.logger.warn({ err: error, events: batch.length }, "gateway events could not be stored; the other instances miss them");
      }
      this.sincePrune += batch.length;
      if (this.sincePrune >= PRUNE_EVERY) {
        this.sincePrune = 0;
        await this.tables.pruneEvents().catch((error: unknown) => this.logger.debug({ err: error }, "old gateway events not pruned"));
      }
    }
  }

  /** Reading starts after the newest event now (an instance that starts, or stops holding, replays nothing). */
  async skipToTop(): Promise<void> {
    this.follower.lastId = await this.tables.topEventId();
  }

  /** Follower: delivers every event after the last one read; one reader at a time, again if woken meanwhile. */
  read(): Promise<void> {
    return this.follower.read();
  }
}

import { randomUUID } from "node:crypto";
import { answerAfter, type Database, type EventBus, type Logger, type TextRedactor } from "@muster/plugin";
import type { ActivityRow } from "../entities/activity.ts";
import type { ActivityLog } from "../tokens.ts";
import { ActivityStore, type ActivityFilter } from "./activity-store.ts";

/** An activity as stored and returned (spec: Activity). */
export type ActivityRecord = ActivityRow;

export interface NewActivity {
  agentId: string;
  action: string;
  target?: string | null;
  details?: string | null;
}

export type ActivityQuery = ActivityFilter;

/** The activity log other plugins write to (list `ACTIVITIES` in their deps, then `activities.log(...)`). */
export class ActivityService implements ActivityLog {
  private readonly deps: { db: () => Database; events: EventBus; redaction: TextRedactor; logger: Logger };
  private readonly store: ActivityStore;
  constructor(deps: { db: () => Database; events: EventBus; redaction: TextRedactor; logger: Logger }) {
    this.deps = deps;
    this.store = new ActivityStore(deps.db);
  }

  /**
   * Appends an activity and publishes `activities.activity.created` after it is stored. The
   * free text (action, target, details) is written by agents: any vault secret value in it
   * is replaced (`[redacted:<NAME>]`) before it is stored, so it is never listed or streamed.
   *
   * On SQLite the row is stored before this returns (inside the caller's transaction, if
   * any). On PostgreSQL, which has no synchronous statement, the record is returned at once
   * and stored just after, in call order per process (an HTTP request that logs one answers
   * once it is stored: `answerAfter`); the event follows the commit, and a failed insert is
   * logged (no event), never thrown into the caller, who has its answer.
   */
  log(input: NewActivity): ActivityRecord {
    const record = this.recordOf(input);
    if (this.store.synchronous) {
      this.store.append(record);
      this.publish(record);
    } else {
      const stored = this.store.appendQueued(record).then(
        () => this.publish(record),
        (error: unknown) => this.deps.logger.error({ err: error, agentId: record.agentId, action: record.action }, "activity not stored"),
      );
      // The request that logged it answers once it is stored: the next request, on any instance, lists it.
      answerAfter(() => stored);
    }
    return record;
  }

  /**
   * `POST /api/activities`: like {@link log}, but resolves once the row is committed (and
   * rejects if it is not), so the 201 is an acknowledged write on PostgreSQL too: the next
   * request, on any instance of a team, lists it.
   */
  async logStored(input: NewActivity): Promise<ActivityRecord> {
    if (this.store.synchronous) return this.log(input);
    const record = this.recordOf(input);
    await this.store.appendQueued(record);
    this.publish(record);
    return record;
  }

  /** The record as stored: free text redacted, a new id, now. */
  private recordOf(input: NewActivity): ActivityRecord {
    const redact = (text: string) => this.deps.redaction.redact(text);
    return {
      id: randomUUID(),
      agentId: input.agentId,
      action: redact(input.action),
      target: input.target == null ? null : redact(input.target),
      details: input.details == null ? null : redact(input.details),
      timestamp: new Date().toISOString(),
    };
  }

  private publish(record: ActivityRecord): void {
    this.deps.events.publish("activities.activity.created", record, { public: true });
  }

  /** Newest first. */
  list(query: ActivityQuery): Promise<ActivityRecord[]> {
    return this.store.list(query);
  }

  /** Resolves once every insert queued so far has settled (PostgreSQL; at once on SQLite). */
  settled(): Promise<void> {
    return this.store.settled();
  }
}

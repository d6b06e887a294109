import { randomUUID } from "node:crypto";
import type { Database, EventBus } from "@muster/plugin";
import type { ActivityLog } from "../tokens.ts";

export interface ActivityRecord {
  id: string;
  agentId: string;
  action: string;
  target: string | null;
  details: string | null;
  timestamp: string;
}

export interface NewActivity {
  agentId: string;
  action: string;
  target?: string | null;
  details?: string | null;
}

export interface ActivityQuery {
  limit: number;
  agentId?: string;
  action?: string;
  /** ISO timestamp; only activities at or after it. */
  since?: string;
}

/** The activity log other plugins write to (`ctx.resolve(ACTIVITIES).log(...)`). */
export class ActivityService implements ActivityLog {
  private readonly deps: { db: () => Database; events: EventBus };
  constructor(deps: { db: () => Database; events: EventBus }) {
    this.deps = deps;
  }

  /** Appends an activity and publishes `activities.activity.created` after it is stored. */
  log(input: NewActivity): ActivityRecord {
    const record: ActivityRecord = {
      id: randomUUID(),
      agentId: input.agentId,
      action: input.action,
      target: input.target ?? null,
      details: input.details ?? null,
      timestamp: new Date().toISOString(),
    };
    // An append-only row with no invariants to guard: a prepared insert keeps logging cheap
    // for the watcher and every plugin that records what it did.
    this.deps
      .db()
      .sql.prepare("INSERT INTO activities_activities (id, agentId, action, target, details, timestamp) VALUES (@id, @agentId, @action, @target, @details, @timestamp)")
      .run(record);
    this.deps.events.publish("activities.activity.created", record, { public: true });
    return record;
  }

  /** Newest first. */
  list(query: ActivityQuery): ActivityRecord[] {
    const where: string[] = [];
    const params: Record<string, unknown> = { limit: query.limit };
    if (query.agentId) {
      where.push("agentId = @agentId");
      params.agentId = query.agentId;
    }
    if (query.action) {
      where.push("action = @action");
      params.action = query.action;
    }
    if (query.since) {
      where.push("timestamp >= @since");
      params.since = query.since;
    }
    const sql = `SELECT id, agentId, action, target, details, timestamp FROM activities_activities
      ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY timestamp DESC, rowid DESC LIMIT @limit`;
    return this.deps.db().sql.prepare(sql).all(params) as ActivityRecord[];
  }
}

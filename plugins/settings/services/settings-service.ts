import { randomUUID } from "node:crypto";
import type { Database, Logger } from "@muster/plugin";
import type { Notifier } from "../../notifications/tokens.ts";
import { AutopilotGoal, AutopilotRun, type AutopilotGoalRow, type AutopilotRunRow } from "../entities/autopilot.ts";
import { Setting } from "../entities/setting.ts";
import { settingsErrors } from "../errors.ts";
import { secretLike } from "./secret-names.ts";

export const MAX_VALUE_BYTES = 64 * 1024;

export type GoalInput = Partial<Pick<AutopilotGoalRow, "id" | "description" | "priority" | "status">> & { title: string };
export type RunInput = Partial<Omit<AutopilotRunRow, "agentId" | "createdAt" | "updatedAt">> & { agentId: string };

/** Key-value settings and the autopilot goal and run records (DESIGN §14.7). */
export class SettingsService {
  private readonly deps: { db: () => Database; logger: Logger; notifications?: Notifier };
  constructor(deps: { db: () => Database; logger: Logger; notifications?: Notifier }) {
    this.deps = deps;
  }

  private settings() {
    return this.deps.db().em().createQueryBuilder(Setting);
  }

  private goalsQb() {
    return this.deps.db().em().createQueryBuilder(AutopilotGoal);
  }

  private runsQb() {
    return this.deps.db().em().createQueryBuilder(AutopilotRun);
  }

  async all(): Promise<Record<string, unknown>> {
    const rows = await this.settings().select("*").orderBy({ key: "asc" }).execute("all", false);
    return Object.fromEntries(rows.map((r) => [r.key, JSON.parse(r.value)]));
  }

  async get(key: string): Promise<{ key: string; value: unknown; updatedAt: string }> {
    const row = await this.settings().select("*").where({ key }).execute("get", false);
    if (!row) throw settingsErrors.SETTING_NOT_FOUND({ key });
    return { key, value: JSON.parse(row.value), updatedAt: row.updatedAt };
  }

  async put(key: string, value: unknown): Promise<{ key: string; value: unknown; updatedAt: string }> {
    const match = secretLike(key);
    if (match) throw settingsErrors.SETTING_SECRET_NAME({ key, match });
    const text = JSON.stringify(value);
    const bytes = Buffer.byteLength(text);
    if (bytes > MAX_VALUE_BYTES) throw settingsErrors.SETTING_TOO_LARGE({ bytes, limit: MAX_VALUE_BYTES });
    const updatedAt = new Date().toISOString();
    await this.settings().insert({ key, value: text, updatedAt }).onConflict("key").merge(["value", "updatedAt"]).execute();
    return { key, value, updatedAt };
  }

  async remove(key: string): Promise<void> {
    const result = await this.settings().delete().where({ key }).execute<{ affectedRows: number }>("run");
    if (!result.affectedRows) throw settingsErrors.SETTING_NOT_FOUND({ key });
  }

  async goals(): Promise<AutopilotGoalRow[]> {
    return this.goalsQb().select("*").orderBy({ createdAt: "desc", id: "desc" }).execute("all", false);
  }

  /** Creates, or updates the goal with `id` when it exists (POST upserts, as the reference does). */
  async saveGoal(input: GoalInput): Promise<{ goal: AutopilotGoalRow; created: boolean }> {
    const now = new Date().toISOString();
    const existing = input.id ? await this.goalsQb().select("*").where({ id: input.id }).execute("get", false) : null;
    if (existing) {
      const goal = { ...existing, ...definedOnly(input), updatedAt: now } as AutopilotGoalRow;
      await this.goalsQb().update(goal).where({ id: existing.id }).execute();
      return { goal, created: false };
    }
    const goal: AutopilotGoalRow = { id: input.id ?? randomUUID(), title: input.title, description: input.description ?? null, priority: input.priority ?? "high", status: input.status ?? "active", createdAt: now, updatedAt: now };
    await this.goalsQb().insert(goal).execute();
    return { goal, created: true };
  }

  async removeGoal(id: string): Promise<void> {
    const result = await this.goalsQb().delete().where({ id }).execute<{ affectedRows: number }>("run");
    if (!result.affectedRows) throw settingsErrors.AUTOPILOT_GOAL_NOT_FOUND({ id });
  }

  async runs(limit: number): Promise<AutopilotRunRow[]> {
    return this.runsQb().select("*").orderBy({ createdAt: "desc", id: "desc" }).limit(limit).execute("all", false);
  }

  /** Creates or updates a run; a transition to `done` or `failed` notifies the owner. */
  async saveRun(input: RunInput): Promise<{ run: AutopilotRunRow; created: boolean }> {
    if (input.goalId && !(await this.goalsQb().select("id").where({ id: input.goalId }).execute("get", false))) {
      throw settingsErrors.AUTOPILOT_GOAL_NOT_FOUND({ id: input.goalId });
    }
    const now = new Date().toISOString();
    const existing = input.id ? await this.runsQb().select("*").where({ id: input.id }).execute("get", false) : null;
    let run: AutopilotRunRow;
    if (existing) {
      run = { ...existing, ...definedOnly(input), updatedAt: now } as AutopilotRunRow;
      await this.runsQb().update(run).where({ id: existing.id }).execute();
    } else {
      run = {
        id: input.id ?? randomUUID(),
        goalId: input.goalId ?? null,
        agentId: input.agentId,
        taskTitle: input.taskTitle ?? null,
        taskDescription: input.taskDescription ?? null,
        status: input.status ?? "pending",
        result: input.result ?? null,
        feedback: input.feedback ?? null,
        feedbackNote: input.feedbackNote ?? null,
        createdAt: now,
        updatedAt: now,
      };
      await this.runsQb().insert(run).execute();
    }
    if ((run.status === "done" || run.status === "failed") && existing?.status !== run.status) this.notify(run);
    return { run, created: !existing };
  }

  async removeRun(id: string): Promise<void> {
    const result = await this.runsQb().delete().where({ id }).execute<{ affectedRows: number }>("run");
    if (!result.affectedRows) throw settingsErrors.AUTOPILOT_RUN_NOT_FOUND({ id });
  }

  private notify(run: AutopilotRunRow): void {
    try {
      this.deps.notifications?.create({
        type: "autopilot",
        title: `Autopilot run ${run.status}: ${run.taskTitle ?? run.id}`,
        body: run.result,
        priority: run.status === "failed" ? "high" : "normal",
        agentId: run.agentId,
      });
    } catch (error) {
      this.deps.logger.warn({ err: error }, "autopilot notification not stored");
    }
  }
}

function definedOnly<T extends object>(input: T): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<T>;
}

import { randomUUID } from "node:crypto";
import { defineStore, type Database, type EntityStore, type Logger } from "@muster/plugin";
import type { Notifier } from "../../notifications/tokens.ts";
import { AutopilotGoal, AutopilotRun, type AutopilotGoalRow, type AutopilotRunRow } from "../entities/autopilot.ts";
import { Setting } from "../entities/setting.ts";
import { settingsErrors } from "../errors.ts";
import { secretLike } from "./secret-names.ts";

export const MAX_VALUE_BYTES = 64 * 1024;

export type GoalInput = Partial<Pick<AutopilotGoalRow, "id" | "description" | "priority" | "status">> & { title: string };
export type RunInput = Partial<Omit<AutopilotRunRow, "agentId" | "createdAt" | "updatedAt">> & { agentId: string };

// Text columns only: rows need no mapping.
const settingRows = defineStore(Setting, { key: "key", orderBy: { key: "asc" }, mapRows: false });
/** Newest first. */
const goalRows = defineStore(AutopilotGoal, { orderBy: { createdAt: "desc", id: "desc" }, mapRows: false });
const runRows = defineStore(AutopilotRun, { orderBy: { createdAt: "desc", id: "desc" }, mapRows: false });

/** Key-value settings and the autopilot goal and run records (DESIGN §14.7), over the store kit. */
export class SettingsService {
  private readonly deps: { db: () => Database; logger: Logger; notifications?: Notifier };
  private readonly settings: EntityStore<typeof Setting, "key">;
  private readonly goalStore: EntityStore<typeof AutopilotGoal>;
  private readonly runStore: EntityStore<typeof AutopilotRun>;
  constructor(deps: { db: () => Database; logger: Logger; notifications?: Notifier }) {
    this.deps = deps;
    this.settings = settingRows.on(deps.db);
    this.goalStore = goalRows.on(deps.db);
    this.runStore = runRows.on(deps.db);
  }

  async all(): Promise<Record<string, unknown>> {
    const rows = await this.settings.list();
    return Object.fromEntries(rows.map((r) => [r.key, JSON.parse(r.value)]));
  }

  async get(key: string): Promise<{ key: string; value: unknown; updatedAt: string }> {
    const row = await this.settings.get(key);
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
    // An upsert: one statement, so two writers of a new key cannot collide on it.
    await this.settings.qb().insert({ key, value: text, updatedAt }).onConflict("key").merge(["value", "updatedAt"]).execute();
    return { key, value, updatedAt };
  }

  async remove(key: string): Promise<void> {
    if (!(await this.settings.delete(key))) throw settingsErrors.SETTING_NOT_FOUND({ key });
  }

  async goals(): Promise<AutopilotGoalRow[]> {
    return this.goalStore.list();
  }

  /** Creates, or updates the goal with `id` when it exists (POST upserts, as the reference does). */
  async saveGoal(input: GoalInput): Promise<{ goal: AutopilotGoalRow; created: boolean }> {
    const now = new Date().toISOString();
    const existing = input.id ? await this.goalStore.get(input.id) : null;
    if (existing) {
      const goal = { ...existing, ...definedOnly(input), updatedAt: now } as AutopilotGoalRow;
      await this.goalStore.update(existing.id, goal);
      return { goal, created: false };
    }
    const goal: AutopilotGoalRow = { id: input.id ?? randomUUID(), title: input.title, description: input.description ?? null, priority: input.priority ?? "high", status: input.status ?? "active", createdAt: now, updatedAt: now };
    await this.goalStore.insert(goal);
    return { goal, created: true };
  }

  async removeGoal(id: string): Promise<void> {
    if (!(await this.goalStore.delete(id))) throw settingsErrors.AUTOPILOT_GOAL_NOT_FOUND({ id });
  }

  async runs(limit: number): Promise<AutopilotRunRow[]> {
    return this.runStore.list({ limit });
  }

  /** Creates or updates a run; a transition to `done` or `failed` notifies the owner. */
  async saveRun(input: RunInput): Promise<{ run: AutopilotRunRow; created: boolean }> {
    if (input.goalId && !(await this.goalStore.get(input.goalId))) {
      throw settingsErrors.AUTOPILOT_GOAL_NOT_FOUND({ id: input.goalId });
    }
    const now = new Date().toISOString();
    const existing = input.id ? await this.runStore.get(input.id) : null;
    let run: AutopilotRunRow;
    if (existing) {
      run = { ...existing, ...definedOnly(input), updatedAt: now } as AutopilotRunRow;
      await this.runStore.update(existing.id, run);
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
      await this.runStore.insert(run);
    }
    if ((run.status === "done" || run.status === "failed") && existing?.status !== run.status) this.notify(run);
    return { run, created: !existing };
  }

  async removeRun(id: string): Promise<void> {
    if (!(await this.runStore.delete(id))) throw settingsErrors.AUTOPILOT_RUN_NOT_FOUND({ id });
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

// POST /api/board/import: copies a project's YAML board into the work plugin's tables.
// Existing ids are skipped (and listed), never overwritten; counts are rows actually inserted.
import { clip, MusterError, retryWhileLocked, type EventBus, type WorkspacePaths } from "@muster/plugin";
import type { WorkTracker } from "../../work/tokens.ts";
import type { BoardImport } from "../tokens.ts";
import { readBoard } from "./board-reader.ts";
import type { BoardItem } from "./board-items.ts";
import { isDate, isRecordId, mapValue } from "./value-maps.ts";

type Kind = "project" | "epic" | "story" | "sprint" | "task";

export interface ImportReport {
  project: string;
  imported: { projects: number; epics: number; stories: number; sprints: number; tasks: number };
  /** Items whose id already exists in the database. */
  skipped: { kind: Kind; id: string; reason: string }[];
  /** Items that could not be imported (no id, no title, refused by the work plugin). */
  errors: { kind: Kind; id: string | null; reason: string }[];
  warnings: string[];
}

const str = (v: unknown, max: number) => (typeof v === "string" && v.trim() ? clip(v.replace(/\0/g, ""), max) : null);

export class BoardImporter implements BoardImport {
  private readonly deps: { workspace: WorkspacePaths; work: WorkTracker; events: EventBus };
  constructor(deps: { workspace: WorkspacePaths; work: WorkTracker; events: EventBus }) {
    this.deps = deps;
  }

  async import(project: string): Promise<ImportReport> {
    const board = await readBoard(this.deps.workspace, project);
    const work = this.deps.work;
    const report: ImportReport = {
      project,
      imported: { projects: 0, epics: 0, stories: 0, sprints: 0, tasks: 0 },
      skipped: [],
      errors: [],
      warnings: [...board.warnings],
    };
    const w = report.warnings;
    const ref = async (kind: Kind, value: unknown, where: string): Promise<string | null> => {
      if (value === null || value === undefined) return null;
      if (isRecordId(value) && (await work.exists(kind, value))) return value;
      w.push(`${where}: ${kind} ${JSON.stringify(value)} does not exist; the reference is left empty`);
      return null;
    };
    const person = (value: unknown, where: string): string | null => {
      if (value === null || value === undefined) return null;
      if (isRecordId(value)) return value;
      w.push(`${where}: ${JSON.stringify(value)} is not an agent id; left empty`);
      return null;
    };

    const insert = async (kind: Kind, item: BoardItem | { id: string }, title: unknown, data: () => Record<string, unknown> | Promise<Record<string, unknown>>) => {
      const id: unknown = item.id;
      if (!isRecordId(id)) return void report.errors.push({ kind, id: typeof id === "string" ? clip(id, 200) : null, reason: "missing or invalid id" });
      if (await work.exists(kind, id)) return void report.skipped.push({ kind, id, reason: "already exists" });
      if (title === null) return void report.errors.push({ kind, id, reason: kind === "sprint" || kind === "project" ? "missing name" : "missing title" });
      try {
        const input = await data();
        // Earlier rows of this import are committed: a lock is waited out for this row
        // alone, since a re-run of the whole import would report them as already existing.
        await retryWhileLocked(() => work.create(kind, input, { id }));
        report.imported[`${kind === "story" ? "storie" : kind}s` as keyof ImportReport["imported"]] += 1;
      } catch (error) {
        if (!(error instanceof MusterError) || error.status >= 500) throw error;
        if (error.code === "WORK_ID_EXISTS") report.skipped.push({ kind, id, reason: "already exists" });
        else report.errors.push({ kind, id, reason: error.message });
      }
    };

    await insert("project", { id: project }, project, () => ({ name: project, status: "active" }));
    for (const [i, e] of board.epics.entries()) {
      const at = `epics.yaml[${i}]`;
      await insert("epic", e, str(e.title, 500), () => ({
        title: str(e.title, 500),
        status: mapValue("epic", e.status, `${at}.status`, w),
        priority: mapValue("priority", e.priority, `${at}.priority`, w),
        createdBy: person(e.createdBy, `${at}.created_by`),
        approvedBy: person(e.approvedBy, `${at}.approved_by`),
        notes: str(e.notes, 20_000),
      }));
    }
    for (const [i, s] of board.stories.entries()) {
      const at = `stories.yaml[${i}]`;
      await insert("story", s, str(s.title, 500), async () => ({
        title: str(s.title, 500),
        epicId: await ref("epic", s.epic, `${at}.epic`),
        status: mapValue("story", s.status, `${at}.status`, w),
        points: typeof s.points === "number" && s.points >= 0 && s.points <= 1000 ? s.points : null,
        assignedTo: person(s.assignedTo, `${at}.assigned_to`),
      }));
    }
    for (const [i, s] of board.sprints.entries()) {
      const at = `sprints.yaml[${i}]`;
      await insert("sprint", s, str(s.name, 500), async () => {
        const date = (v: unknown, field: string) => (v === null ? null : isDate(v) ? v : (w.push(`${at}.${field}: not a YYYY-MM-DD date; left empty`), null));
        const storyIds: string[] = [];
        for (const [n, id] of (s.stories as string[]).entries()) if ((await ref("story", id, `${at}.stories[${n}]`)) !== null) storyIds.push(id);
        return {
          name: str(s.name, 500),
          status: mapValue("sprint", s.status, `${at}.status`, w),
          startDate: date(s.start, "start"),
          endDate: date(s.end, "end"),
          storyIds,
        };
      });
    }
    for (const [i, t] of board.tasks.entries()) {
      const at = `tasks.yaml[${i}]`;
      await insert("task", t, str(t.title, 500), async () => ({
        title: str(t.title, 500),
        description: str(t.description, 20_000),
        status: mapValue("task", t.status, `${at}.status`, w),
        priority: mapValue("priority", t.priority, `${at}.priority`, w),
        assignedTo: person(t.assignedTo, `${at}.assigned_to`),
        projectId: project,
        storyId: await ref("story", t.story, `${at}.story`),
        sprintId: await ref("sprint", t.sprint, `${at}.sprint`),
        notes: str(t.notes, 20_000),
      }));
    }
    this.deps.events.publish("legacy-board.board.imported", { project, imported: report.imported, skipped: report.skipped.length }, { public: true });
    return report;
  }
}

// Board file items (reference §6.6 fields, snake_case) to camelCase records with the
// reference's defaults. Unknown fields are kept under `extra`; wrong types are warnings.
import type { BoardKind } from "./board-files.ts";

type FieldType = "string" | "int" | "strings";
interface Field {
  keys: string[];
  type: FieldType;
  default?: unknown;
}

const s = (...keys: string[]): Field => ({ keys, type: "string" });
const FIELDS: Record<BoardKind, Record<string, Field>> = {
  tasks: {
    id: s("id"), title: s("title"), description: s("description"), status: { ...s("status"), default: "backlog" },
    priority: { ...s("priority"), default: "medium" }, assignedTo: s("assigned_to", "assignedTo"), story: s("story", "story_id"),
    sprint: s("sprint", "sprint_id"), notes: s("notes"), completedAt: s("completed_at"), updatedBy: s("updated_by"), updatedAt: s("updated_at"),
  },
  stories: {
    id: s("id"), epic: s("epic", "epic_id"), title: s("title"), status: { ...s("status"), default: "backlog" },
    points: { keys: ["points"], type: "int" }, assignedTo: s("assigned_to", "assignedTo"), completedAt: s("completed_at"),
  },
  sprints: {
    id: s("id"), name: s("name"), status: { ...s("status"), default: "planning" }, start: s("start", "start_date"),
    end: s("end", "end_date"), stories: { keys: ["stories", "story_ids"], type: "strings", default: [] },
  },
  epics: {
    id: s("id"), title: s("title"), status: { ...s("status"), default: "active" }, createdBy: s("created_by"),
    approvedBy: s("approved_by"), priority: s("priority"), notes: s("notes"), completedAt: s("completed_at"),
  },
};

/** The singular key the workspace templates wrap each item in (`- task: {...}`). */
export const SINGULAR: Record<BoardKind, string> = { tasks: "task", stories: "story", sprints: "sprint", epics: "epic" };

export type BoardItem = Record<string, unknown> & { id: string | null; extra: Record<string, unknown> };

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function convert(value: unknown, type: FieldType, where: string, warnings: string[]): unknown {
  if (value === undefined || value === null) return undefined;
  if (type === "string") {
    if (typeof value === "string") return value;
    if (typeof value === "number" || typeof value === "boolean") return String(value);
    if (value instanceof Date) return value.toISOString();
  } else if (type === "int") {
    const n = typeof value === "string" && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
    if (typeof n === "number" && Number.isInteger(n)) return n;
  } else if (Array.isArray(value) && value.every((v) => typeof v === "string" || typeof v === "number")) {
    return value.map(String);
  }
  warnings.push(`${where}: expected ${type === "strings" ? "a list of ids" : type === "int" ? "an integer" : "a string"}`);
  return undefined;
}

/** Unwraps `{task: {...}}` template items; null for items that are not mappings. */
export function itemBody(kind: BoardKind, item: unknown): Record<string, unknown> | null {
  if (!isMap(item)) return null;
  const keys = Object.keys(item);
  const wrapped = item[SINGULAR[kind]];
  if (keys.length === 1 && isMap(wrapped)) return wrapped;
  return item;
}

/** Normalises one file's parsed content (a top-level list); anything else reads as empty with a warning. */
export function normaliseItems(kind: BoardKind, data: unknown, warnings: string[]): BoardItem[] {
  if (data === undefined || data === null) return [];
  if (!Array.isArray(data)) {
    warnings.push(`${kind}.yaml: expected a top-level list of items`);
    return [];
  }
  const items: BoardItem[] = [];
  data.forEach((raw, index) => {
    const where = `${kind}.yaml[${index}]`;
    const body = itemBody(kind, raw);
    if (!body) {
      warnings.push(`${where}: expected a mapping`);
      return;
    }
    const used = new Set<string>();
    const item: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(FIELDS[kind])) {
      const key = field.keys.find((k) => body[k] !== undefined);
      if (key) used.add(key);
      const value = key ? convert(body[key], field.type, `${where}.${key}`, warnings) : undefined;
      item[name] = value ?? field.default ?? null;
    }
    if (item.id === null) warnings.push(`${where}: has no id`);
    item.extra = Object.fromEntries(Object.entries(body).filter(([k]) => !used.has(k)));
    items.push(item as BoardItem);
  });
  return items;
}

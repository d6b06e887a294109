// Loads tasks a server page at a time (GET /api/tasks takes limit/offset, at most 1000 a
// request): `count` tasks matching the filters, and whether more match.
import { muster } from "@muster/console";
import type { Task, TaskQuery } from "./work-types.ts";

/** Largest `limit` GET /api/tasks accepts. */
const MAX_LIMIT = 1000;

export async function loadTasks(filter: TaskQuery, count: number): Promise<{ tasks: Task[]; more: boolean }> {
  const tasks: Task[] = [];
  // One more than asked for, to know whether more match.
  while (tasks.length < count + 1) {
    const limit = Math.min(MAX_LIMIT, count + 1 - tasks.length);
    const page = await muster.getTasks({ query: { ...filter, limit, offset: tasks.length } });
    tasks.push(...page);
    if (page.length < limit) break;
  }
  return { tasks: tasks.slice(0, count), more: tasks.length > count };
}

// The data `npm run bench:console` measures the console against, created through the API of
// the running server (as agents would create it): tasks, one big board, activities, and a
// few pending approvals so the approvals page has cards to draw.
const CONCURRENCY = 25;
/** Pending approvals: an ordinary morning's inbox (the page draws 50 at most). */
const APPROVALS = 20;

export interface SeedSizes {
  tasks: number;
  cards: number;
  activities: number;
}

export interface Seeded {
  boardId: string;
  /** Card ids in creation order; the first ones are at the top of their column. */
  cardIds: string[];
  columns: string[];
}

async function inBatches(count: number, make: (i: number) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < count; i += CONCURRENCY) await Promise.all(Array.from({ length: Math.min(CONCURRENCY, count - i) }, (_, j) => make(i + j)));
}

export async function seedConsoleData(base: string, sizes: SeedSizes, log: (message: string) => void): Promise<Seeded> {
  const post = async (path: string, body: unknown, expected = [201]) => {
    const res = await fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json", "x-agent-id": "bench" }, body: JSON.stringify(body) });
    if (!expected.includes(res.status)) throw new Error(`POST ${path} answered ${res.status}: ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  const started = performance.now();
  log(`seeding ${sizes.tasks} tasks`);
  await inBatches(sizes.tasks, (i) => post("/api/tasks", { title: `Task ${i + 1}`, status: ["backlog", "in_progress", "review", "done"][i % 4], priority: "medium" }));
  log(`seeding a board of ${sizes.cards} cards`);
  const columns = ["todo", "doing", "done"];
  const board = (await post("/api/boards", { name: "Bench board", columns: columns.map((id) => ({ id, name: id })) })).board as { id: string };
  // One at a time, so that creation order is column order (the first cards are on the first screen).
  const cardIds: string[] = [];
  for (let i = 0; i < sizes.cards; i++) cardIds.push(((await post(`/api/boards/${board.id}/cards`, { title: `Card ${i + 1}`, column: columns[i % 2] })).card as { id: string }).id);
  log(`seeding ${sizes.activities} activities`);
  await inBatches(sizes.activities, (i) => post("/api/activities", { agentId: `agent-${i % 9}`, action: "bench.step", target: `file-${i}.md`, details: "A seeded activity" }));
  log(`seeding ${APPROVALS} pending approvals`);
  await inBatches(APPROVALS, (i) => post("/api/approvals", { title: `Bench request ${i + 1}`, type: "bench.request", requestedBy: `agent-${i % 9}`, context: "A seeded request waiting for a human" }));
  log(`seeded in ${Math.round((performance.now() - started) / 1000)} s`);
  return { boardId: board.id, cardIds, columns };
}

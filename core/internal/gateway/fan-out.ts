// The list methods that name no agent ask every connected gateway, and the router merges
// their answers into one, each row tagged with `gateway: <name>` (an extra field: the
// gateway's own schema is open). Paged lists are read whole from each link and paged again
// over the merged rows; a walk through the pages reuses one merged read for a short while.

/** One link's answer to a fanned-out call. */
export interface LinkAnswer {
  name: string;
  result: unknown;
}

/** Paged list methods: the field holding the rows and the field holding the total. */
export const PAGED_LISTS: Record<string, { rows: string; total: string }> = {
  "sessions.list": { rows: "sessions", total: "totalCount" },
  "cron.list": { rows: "jobs", total: "total" },
};

/** Methods answered by every connected link when they name no agent. */
export const isFanOut = (method: string) => method === "agents.list" || method === "health" || method === "status" || method in PAGED_LISTS || isApprovalList(method);

/** `exec.approval.list` and its kin: a partial list would close the requests of a gateway that is away, so all links must answer. */
export const isApprovalList = (method: string) => /\.approval\.list$/.test(method);

const record = (v: unknown): Record<string, unknown> => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const tag = (row: unknown, name: string) => (row && typeof row === "object" && !Array.isArray(row) ? { ...(row as object), gateway: name } : row);
const rowsOf = (v: unknown, field: string): unknown[] => {
  const rows = record(v)[field];
  return Array.isArray(rows) ? rows : [];
};

/** Agents of every link, tagged, an id two links share listed once (the first link's). */
export function mergeAgents(answers: LinkAnswer[]): Record<string, unknown> {
  const seen = new Set<string>();
  const agents: unknown[] = [];
  for (const { name, result } of answers) {
    for (const agent of rowsOf(result, "agents")) {
      const id = record(agent).id;
      if (typeof id === "string") {
        if (seen.has(id)) continue;
        seen.add(id);
      }
      agents.push(tag(agent, name));
    }
  }
  return { ...record(answers[0]?.result), agents, defaultId: record(answers[0]?.result).defaultId };
}

/** `health`: ok when every answering link is; agents of all, tagged; each link's own answer under `gateways`. */
export function mergeHealth(answers: LinkAnswer[]): Record<string, unknown> {
  return {
    ...record(answers[0]?.result),
    ok: answers.every((a) => record(a.result).ok === true),
    agents: answers.flatMap(({ name, result }) => rowsOf(result, "agents").map((row) => tag(row, name))),
    gateways: answers.map(({ name, result }) => ({ ...record(result), gateway: name })),
  };
}

/** `status`: the first link's answer, each link's under `gateways`. */
export function mergeStatus(answers: LinkAnswer[]): Record<string, unknown> {
  return { ...record(answers[0]?.result), gateways: answers.map(({ name, result }) => ({ ...record(result), gateway: name })) };
}

/** An approval list (an array of pending requests): the requests of all links, tagged. */
export function mergeApprovalLists(answers: LinkAnswer[]): unknown[] {
  return answers.flatMap(({ name, result }) => (Array.isArray(result) ? result.map((row) => tag(row, name)) : []));
}

/** One page of the merged rows of a paged list, in the shape the gateway answers it. */
export function pageOf(method: string, merged: unknown[], params: Record<string, unknown>): Record<string, unknown> {
  const { rows, total } = PAGED_LISTS[method]!;
  const offset = typeof params.offset === "number" && params.offset > 0 ? Math.floor(params.offset) : 0;
  const limit = typeof params.limit === "number" && params.limit > 0 ? Math.floor(params.limit) : merged.length;
  const page = merged.slice(offset, offset + limit);
  const hasMore = offset + page.length < merged.length;
  return { [rows]: page, count: page.length, [total]: merged.length, hasMore, nextOffset: hasMore ? offset + page.length : null };
}

/** Every row of a paged list from one link, page by page (the link's own paging), tagged. */
export async function readAllPages(
  method: string,
  params: Record<string, unknown>,
  name: string,
  call: (params: Record<string, unknown>) => Promise<unknown>,
): Promise<unknown[]> {
  const { rows } = PAGED_LISTS[method]!;
  const PAGE = 500;
  const all: unknown[] = [];
  for (let offset = 0, guard = 0; guard < 1_000; guard++) {
    const result = record(await call({ ...params, offset, limit: PAGE }));
    const page = rowsOf(result, rows);
    all.push(...page.map((row) => tag(row, name)));
    const next = typeof result.nextOffset === "number" ? result.nextOffset : offset + page.length;
    if (result.hasMore !== true || page.length === 0 || next <= offset) break;
    offset = next;
  }
  return all;
}

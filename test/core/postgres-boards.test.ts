// Boards on a real, throwaway PostgreSQL (issue 25): the board and card stores left `db.sql`
// for the store kit's `atomically` steps, each card step locking its boards' rows first. One
// scripted session of board and card requests (CRUD, moves, WIP refusals, claims, comments,
// archive and restore, delegation and its completion, hard deletes, bad input) answers the
// same on PostgreSQL as on SQLite, byte for byte once ids and times are named; 20 concurrent
// moves or creates into a column with a WIP limit give exactly `limit` winners; gated moves,
// a card moved meanwhile, events after commit, and links cleared when a story is deleted.
// The SQLite suites stay under test/plugins/boards. One cluster for the file, always
// stopped; skipped, with the reason printed, where PostgreSQL's server binaries are missing.
import * as assert from "uvu/assert";
import { definePlugin, defineRoutes, defineService, hostTokens, token, z, type Database, type EventBus } from "@muster/plugin";
import { decideApproval, type ApiBody } from "@muster/plugin/testing";
import { activitiesPlugin } from "../../plugins/activities/index.ts";
import { approvalsPlugin } from "../../plugins/approvals/index.ts";
import { boardsPlugin } from "../../plugins/boards/index.ts";
import { CardStore } from "../../plugins/boards/services/card-store.ts";
import { notificationsPlugin } from "../../plugins/notifications/index.ts";
import { streamPlugin } from "../../plugins/stream/index.ts";
import { workPlugin } from "../../plugins/work/index.ts";
import { openSse } from "../helpers/sse-client.ts";
import { withTestHost, type TestHost } from "../helpers/start-test-host.ts";
import { waitUntil } from "../helpers/wait.ts";
import { postgresSuite } from "../helpers/postgres-cluster.ts";
import { assertError, createBoard, createCard, layout, patchCard } from "../plugins/boards/helpers.ts";

const { t, test, database } = postgresSuite("boards on PostgreSQL");

/** How many requests a race starts at once. */
const RACERS = 20;
const PROBE = token<{ db: () => Database; events: EventBus }>("pg-boards-probe.deps");

/** Cards linked to a story without the work plugin's create (another slice), and the story's deletion event. */
const probePlugin = definePlugin({
  id: "pg-boards-probe",
  version: "1.0.0",
  host: "^1.0.0",
  paths: ["/api/pg-boards-probe"],
  optionalDependsOn: ["boards"],
  register(ctx) {
    ctx.provide(defineService({ token: PROBE, deps: { db: hostTokens.db, events: hostTokens.events }, create: ({ db, events }) => ({ db: () => db as Database, events }) }));
  },
  routes: defineRoutes({
    deps: { probe: PROBE },
    mount(router, { probe }) {
      router.post("/api/pg-boards-probe/linked", { summary: "Cards linked to a story", body: z.object({ boardId: z.string(), storyId: z.string(), count: z.number().int() }) }, async ({ body }) => {
        const store = new CardStore(probe.db);
        const now = new Date().toISOString();
        const ids: string[] = [];
        for (let i = 0; i < body.count; i++) ids.push((await store.create({ boardId: body.boardId, title: `linked ${i}`, fields: { storyId: body.storyId }, createdBy: "probe" }, now)).card.id);
        return { ok: true, ids };
      });
      router.post("/api/pg-boards-probe/story-deleted", { summary: "Publish a story's deletion", body: z.object({ id: z.string() }) }, ({ body }) => {
        probe.events.publish("work.story.deleted", { id: body.id } as never, { public: true });
        return { ok: true };
      });
    },
  }),
});

const PLUGINS = [activitiesPlugin, notificationsPlugin, approvalsPlugin, workPlugin, streamPlugin, boardsPlugin, probePlugin];

async function withPostgresHost(body: (h: TestHost) => Promise<void>): Promise<void> {
  await withTestHost({ plugins: PLUGINS as never, env: { DATABASE_URL: await database() } }, body);
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g;

/**
 * A scripted session of board and card requests, each answer as its raw text with ids named
 * by first appearance and times blanked: the same script gives the same transcript on both
 * engines when every answer, key order and array order included, is the same.
 */
async function transcript(h: TestHost): Promise<string[]> {
  const lines: string[] = [];
  const names = new Map<string, string>();
  const call = async (method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
    const res = await h.request(path, { method, body, headers, session: method === "DELETE" });
    const text = await res.text();
    const named = (s: string) => s.replace(UUID, (id) => names.get(id) ?? (names.set(id, `id${names.size + 1}`), names.get(id)!)).replace(TIME, "<time>");
    lines.push(`${method} ${named(path)} → ${res.status} ${named(text)}`);
    return res.status < 300 ? (JSON.parse(text) as any) : undefined; // `any`: each route's answer is read by the step that sent it
  };
  const columns = [{ id: "todo", name: "To do" }, { id: "doing", name: "Doing", wipLimit: 2 }, { id: "done", name: "Done", color: "#0a0" }];
  const a = (await call("POST", "/api/boards", { name: "Social", squad: "social", columns, settings: { commentRequiredFor: ["done"] } })).board.id;
  const b = (await call("POST", "/api/boards", { name: "Dev", template: "kanban", squad: "dev", settings: { lead: "thor" } })).board.id;
  await call("GET", "/api/boards/templates");
  await call("GET", `/api/boards/${a}`);
  const card = async (body: Record<string, unknown>) => (await call("POST", `/api/boards/${a}/cards`, body)).card.id as string;
  const c1 = await card({ title: "One", labels: ["web", "ops"], checklist: [{ text: "draft", checked: true }], priority: "high", dueDate: "2027-01-31" });
  const c2 = await card({ title: "Two", description: "details", attachments: [{ name: "spec", url: "https://example.com/s" }] });
  const c3 = await card({ title: "Three", position: 0 });
  const c4 = await card({ title: "Four", column: "doing", progress: 40 });
  await call("PATCH", `/api/cards/${c1}`, { column: "doing" }, { "x-agent-id": "loki" });
  await call("PATCH", `/api/cards/${c2}`, { column: "doing", position: 0 }); // WIP_LIMIT_REACHED
  await call("PATCH", `/api/cards/${c2}`, { position: 0, title: "Two!", labels: ["x"], progress: 10 });
  await call("PATCH", `/api/cards/${c3}`, { parentCardId: c2, comment: "child of two" }, { "x-agent-id": "freya" });
  await call("PATCH", `/api/cards/${c4}`, { position: 0 });
  await call("POST", `/api/cards/${c2}/claim`, { agentId: "thor" });
  await call("POST", `/api/cards/${c2}/claim`, { agentId: "odin" }); // CARD_ALREADY_CLAIMED
  await call("POST", `/api/cards/${c2}/comments`, { content: "on it" }, { "x-agent-id": "thor" });
  await call("GET", `/api/cards/${c2}/comments`);
  await call("DELETE", `/api/cards/${c1}`); // archived
  await call("PATCH", `/api/cards/${c1}`, { title: "no" }); // CARD_ARCHIVED
  await call("POST", `/api/boards/${a}/cards`, { title: "Five", column: "doing" });
  await call("PATCH", `/api/cards/${c1}`, { archived: false }); // WIP_LIMIT_REACHED: doing is full again
  await call("PATCH", `/api/cards/${c1}`, { archived: false, column: "todo", position: 1 });
  await call("PATCH", `/api/cards/${c3}`, { column: "done" }); // CARD_COMMENT_REQUIRED
  await call("PATCH", `/api/cards/${c3}`, { column: "nowhere" }); // BOARD_COLUMN_UNKNOWN
  await call("PATCH", `/api/cards/${c3}`, { position: -1 }); // VALIDATION_FAILED
  await call("PATCH", `/api/cards/${c3}`, { parentCardId: c3 }); // CARD_PARENT_INVALID
  await call("PATCH", `/api/cards/${c3}`, { storyId: "missing" }); // CARD_LINK_NOT_FOUND
  await call("PATCH", `/api/cards/missing`, { title: "x" }); // CARD_NOT_FOUND
  await call("POST", `/api/boards/missing/cards`, { title: "x" }); // BOARD_NOT_FOUND
  // Delegation to the other squad, and its completion back on the source's board.
  const delegated = (await call("POST", `/api/cards/${c3}/delegate`, { boardId: b, message: "by Friday" }, { "x-agent-id": "freya" })).delegatedCard.id;
  await call("POST", `/api/cards/${c3}/delegate`, { boardId: b }); // CARD_ALREADY_DELEGATED
  await call("PATCH", `/api/cards/${delegated}`, { column: "done" }, { "x-agent-id": "thor" });
  await call("GET", `/api/boards/${b}`);
  // Board changes: a column holding cards stays; a new one with a limit; policies checked.
  await call("PATCH", `/api/boards/${a}`, { columns: [columns[0], columns[2]] }); // BOARD_COLUMN_NOT_EMPTY
  await call("PATCH", `/api/boards/${a}`, { name: "Social media", columns: [...columns, { id: "review", name: "Review", wipLimit: 1 }] });
  await call("PATCH", `/api/boards/${a}`, { settings: { requireApprovalFor: ["gone"] } }); // BOARD_COLUMN_UNKNOWN
  await call("PATCH", `/api/cards/${c4}`, { column: "review" });
  for (const path of [`/api/boards/${a}`, `/api/boards/${a}/cards`, `/api/boards/${a}/cards?archived=true`, `/api/boards/${a}/cards?column=doing`, `/api/boards/${a}/cards?assignee=thor`]) await call("GET", path);
  for (const id of [c1, c2, c3, c4, delegated]) await call("GET", `/api/cards/${id}`);
  // Archived board: card changes refused; restored: accepted again.
  await call("DELETE", `/api/boards/${b}`);
  await call("GET", "/api/boards?archived=true");
  await call("PATCH", `/api/cards/${delegated}`, { title: "x" }); // BOARD_ARCHIVED
  await call("PATCH", `/api/boards/${b}`, { archived: false });
  await call("GET", "/api/boards?squad=dev");
  await call("GET", `/api/boards/${b}`);
  // Hard deletes: a card with its comments and history, then a board, which clears the other board's links.
  // Each hard delete clears links held by the other board's cards, and that board's view shows it.
  await call("DELETE", `/api/cards/${c2}?hard=true`);
  await call("GET", `/api/cards/${c3}`);
  const d4 = (await call("POST", `/api/cards/${c4}/delegate`, { boardId: b })).delegatedCard.id;
  await call("GET", `/api/boards/${b}`);
  await call("DELETE", `/api/cards/${c4}?hard=true`);
  const delegatedFrom = async () => Object.fromEntries(((await call("GET", `/api/boards/${b}`)).cards as { id: string; delegatedFrom: string | null }[]).map((c) => [c.id, c.delegatedFrom]));
  assert.equal(await delegatedFrom(), { [delegated]: c3, [d4]: null }, "the view after a card's hard delete");
  await call("GET", `/api/boards/${a}`);
  await call("DELETE", `/api/boards/${a}?hard=true`);
  await call("GET", `/api/boards/${a}`);
  assert.equal(await delegatedFrom(), { [delegated]: null, [d4]: null }, "the view after a board's hard delete");
  await call("GET", `/api/cards/${delegated}`);
  return lines;
}

t("a scripted session of board and card requests answers the same on PostgreSQL as on SQLite", async () => {
  let sqlite: string[] = [];
  await withTestHost({ plugins: PLUGINS as never }, async (h) => {
    sqlite = await transcript(h);
  });
  assert.ok(sqlite.some((l) => l.includes("WIP_LIMIT_REACHED")) && sqlite.some((l) => l.includes("CARD_ALREADY_DELEGATED")), sqlite.join("\n"));
  if (test === t.skip) return;
  await withPostgresHost(async (h) => {
    const postgres = await transcript(h);
    for (let i = 0; i < sqlite.length; i++) assert.is(postgres[i], sqlite[i], `answer ${i + 1}`);
    assert.is(postgres.length, sqlite.length);
  });
});

test("20 concurrent moves or creates into a column with a WIP limit: exactly `limit` succeed, positions stay dense", async () => {
  await withPostgresHost(async (h) => {
    const board = await createBoard(h, { columns: [{ id: "todo", name: "To do" }, { id: "doing", name: "Doing", wipLimit: 3 }, { id: "done", name: "Done", wipLimit: 5 }] });
    const ids: string[] = [];
    for (let i = 0; i < RACERS; i++) ids.push((await createCard(h, board.id, { title: `c${i}` })).id);
    const moves = await Promise.all(ids.map((id, i) => patchCard(h, id, { column: "doing", position: i % 4 })));
    assert.is(moves.filter((r) => r.status === 200).length, 3, JSON.stringify(moves.map((r) => r.status)));
    for (const r of moves.filter((r) => r.status !== 200)) assertError(r, 409, "WIP_LIMIT_REACHED");
    const creates = await Promise.all(Array.from({ length: RACERS }, (_, i) => h.json<ApiBody<"postBoardsCardsById">>(`/api/boards/${board.id}/cards`, { method: "POST", body: { title: `n${i}`, column: "done", position: 0 } })));
    assert.is(creates.filter((r) => r.status === 201).length, 5);
    for (const r of creates.filter((r) => r.status !== 201)) assertError(r, 409, "WIP_LIMIT_REACHED");
    const now = await layout(h, board.id);
    assert.equal([now.todo!.length, now.doing!.length, now.done!.length], [17, 3, 5]);
    // Each winner wrote its history row with its move.
    const moved = await Promise.all(ids.map((id) => h.json<ApiBody<"getCardsById">>(`/api/cards/${id}`)));
    assert.is(moved.filter((r) => r.body.history.some((e) => e.action === "moved")).length, 3);

    // 60 overlapping moves, creates and archives over three columns keep every column dense and lose no card.
    const columns = ["todo", "doing", "done"];
    const mixed = await Promise.all(Array.from({ length: 60 }, (_, i) => {
      if (i % 10 === 0) return h.json<ApiBody<"postBoardsCardsById">>(`/api/boards/${board.id}/cards`, { method: "POST", body: { title: `m${i}`, position: i % 4 } });
      if (i % 15 === 7) return h.json<ApiBody<"deleteCardsById">>(`/api/cards/${ids[i % RACERS]}`, { method: "DELETE", session: true });
      return patchCard(h, ids[(i * 7) % RACERS]!, { column: columns[(i * 5) % 3], position: (i * 3) % 9 });
    }));
    for (const r of mixed) assert.ok([200, 201].includes(r.status) || ["CARD_ARCHIVED", "WIP_LIMIT_REACHED"].includes(r.body.error?.code ?? ""), JSON.stringify(r.body));
    const archived = (await h.json<ApiBody<"getBoardsCardsById">>(`/api/boards/${board.id}/cards?archived=true`)).body.cards.length;
    const after = await layout(h, board.id);
    assert.is(Object.values(after).flat().length + archived, RACERS + 5 + mixed.filter((r) => r.status === 201).length);
    assert.ok(after.doing!.length <= 3 && after.done!.length <= 5, JSON.stringify(after));
  });
});

test("a gated move waits for its approval; approved after the card moved meanwhile, it is refused; events reach SSE clients after commit", async () => {
  await withPostgresHost(async (h) => {
    const sse = await openSse(h.url);
    try {
      const named = (name: string) => sse.next((f) => f.data?.type === "event" && f.data.name === name, 10_000, name);
      const board = await createBoard(h, { settings: { requireApprovalFor: ["done"] } });
      await named("boards.board.created");
      const a = await createCard(h, board.id, { title: "A" });
      assert.is((await named("boards.card.created")).data.payload.card.id, a.id);
      const pending = await patchCard(h, a.id, { column: "done", progress: 100 }, { "x-agent-id": "loki" });
      assert.is(pending.status, 202, JSON.stringify(pending.body));
      assert.ok(pending.body.approval);
      const first = await patchCard(h, a.id, { column: "doing" });
      assert.is(first.status, 200);
      // Published after the commit: a client that reads on the event sees the move.
      const moved = (await named("boards.card.moved")).data.payload;
      assert.equal([moved.card.column, moved.changes[0].action], ["doing", "moved"]);
      assert.is((await h.client.getCardsById({ id: a.id })).card.column, "doing");
      await decideApproval(h, pending.body.approval.id, "approved");
      const failed = await waitUntil(async () => {
        const approval = (await h.json<ApiBody<"getApprovalsById">>(`/api/approvals/${pending.body.approval!.id}`)).body.approval;
        return approval.executionStatus === "failed" ? approval : null;
      }, { label: "the approved move refused" });
      assert.match(failed.executionError ?? "", /was in todo when the move was requested and is now in doing/);

      const again = await patchCard(h, a.id, { column: "done" });
      assert.ok(again.body.approval);
      await decideApproval(h, again.body.approval.id, "approved");
      const done = await waitUntil(async () => ((await h.client.getCardsById({ id: a.id })).card.column === "done" ? h.client.getCardsById({ id: a.id }) : null), { label: "the approved move" });
      assert.ok(done.card.completedAt);
      assert.equal(await layout(h, board.id), { todo: [], doing: [], done: ["A"] });
    } finally {
      sse.close();
    }
  });
});

test("a deleted story's link is cleared on every card holding it, with an `unlinked` history row", async () => {
  await withPostgresHost(async (h) => {
    const board = await createBoard(h);
    const other = await createBoard(h, { name: "Other" });
    const linked = async (boardId: string) => (await h.json<{ ids: string[] }>("/api/pg-boards-probe/linked", { method: "POST", body: { boardId, storyId: "story-1", count: 3 } })).body.ids;
    const ids = [...(await linked(board.id)), ...(await linked(other.id))];
    await h.json("/api/pg-boards-probe/story-deleted", { method: "POST", body: { id: "story-1" } });
    await waitUntil(async () => {
      for (const id of ids) if ((await h.client.getCardsById({ id })).card.storyId !== null) return false;
      return true;
    }, { label: "every card's link cleared" });
    const { history } = await h.client.getCardsById({ id: ids[0]! });
    assert.equal(history.map((e) => [e.action, e.field, e.from, e.to, e.by]), [["created", null, null, "todo", "probe"], ["unlinked", "storyId", "story-1", null, "system"]]);
    const view = await h.json<ApiBody<"getBoardsById">>(`/api/boards/${other.id}`);
    assert.equal(view.body.cards.map((c) => c.storyId), [null, null, null]);
  });
});

t.run();

// Board policies, delegation and events through HTTP: a move into a requireApprovalFor column
// waits for a human (approve → moved, reject → not moved, moved meanwhile → refused), a move
// into a commentRequiredFor column needs a comment, a delegated card's completion completes
// its source, and every change reaches SSE clients as a boards.* event.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { openSse } from "../../helpers/sse-client.ts";
import { withTestHost, type TestHost } from "../../helpers/start-test-host.ts";
import { waitUntil } from "../../helpers/wait.ts";
import { type ApiBody, decideApproval, type ApprovalDecision } from "@muster/plugin/testing";
import { assertError, COLUMNS, createBoard, createCard, layout, patchCard } from "./helpers.ts";

const t = suite("boards: policies, delegation, events");

const GATED = { requireApprovalFor: ["done"], commentRequiredFor: ["doing"] };
const decide = (h: TestHost, id: string, status: ApprovalDecision) => decideApproval(h, id, status);
const card = (h: TestHost, id: string) => h.client.getCardsById({ id });

t("requireApprovalFor: the move answers 202 with a pending approval; approving moves the card, rejecting does not", async () => {
  await withTestHost(async (h) => {
    const board = await createBoard(h, { settings: GATED });
    const a = await createCard(h, board.id, { title: "A" });
    const b = await createCard(h, board.id, { title: "B" });
    const res = await patchCard(h, a.id, { column: "done", progress: 100 }, { "x-agent-id": "loki" });
    assert.is(res.status, 202, JSON.stringify(res.body));
    assert.ok(res.body.approval);
    assert.is(res.body.approval.status, "pending");
    assert.is(res.body.approval.command, "boards.card.move");
    assert.is(res.body.approval.requestedBy, "loki");
    assert.is((await card(h, a.id)).card.column, "todo", "nothing moves before a decision");
    assert.is((await card(h, a.id)).card.progress, 0);

    const approved = await decide(h, res.body.approval.id, "approved");
    assert.is(approved.status, 200, JSON.stringify(approved.body));
    const moved = await waitUntil(async () => ((await card(h, a.id)).card.column === "done" ? card(h, a.id) : null), { label: "approved move" });
    assert.is(moved.card.progress, 100);
    assert.ok(moved.card.completedAt);
    assert.equal(moved.history.filter((r) => r.action === "moved").map((r) => [r.from, r.to, r.by]), [["todo", "done", "loki"]]);
    assert.ok(res.body.approval);
    assert.is((await h.json<ApiBody<"getApprovalsById">>(`/api/approvals/${res.body.approval.id}`)).body.approval.executionStatus, "succeeded");

    const second = await patchCard(h, b.id, { column: "done" });
    assert.is(second.status, 202);
    assert.ok(second.body.approval);
    assert.is((await decide(h, second.body.approval.id, "rejected")).status, 200);
    assert.is((await card(h, b.id)).card.column, "todo");
    assert.equal(await layout(h, board.id), { todo: ["B"], doing: [], done: ["A"] });
  });
});

t("an approved move is refused when the card left its column meanwhile or the target is full", async () => {
  await withTestHost(async (h) => {
    const board = await createBoard(h, { columns: [...COLUMNS.slice(0, 2), { id: "done", name: "Done", wipLimit: 1 }], settings: { requireApprovalFor: ["done"] } });
    const a = await createCard(h, board.id, { title: "A" });
    const b = await createCard(h, board.id, { title: "B" });
    const c = await createCard(h, board.id, { title: "C" });
    const pending = await patchCard(h, a.id, { column: "done" });
    assert.is(pending.status, 202);
    assert.is((await patchCard(h, a.id, { column: "doing" })).status, 200);
    assert.ok(pending.body.approval);
    await decide(h, pending.body.approval.id, "approved");
    const failed = await waitUntil(async () => {
      const approval = (await h.json<ApiBody<"getApprovalsById">>(`/api/approvals/${pending.body.approval!.id}`)).body.approval;
      return approval.executionStatus === "failed" ? approval : null;
    }, { label: "execution failed" });
    assert.match(failed.executionError ?? "", /was in todo when the move was requested and is now in doing/);
    assert.is((await card(h, a.id)).card.column, "doing");

    const forB = await patchCard(h, b.id, { column: "done" });
    const forC = await patchCard(h, c.id, { column: "done" });
    assert.ok(forB.body.approval);
    await decide(h, forB.body.approval.id, "approved");
    await waitUntil(async () => (await card(h, b.id)).card.column === "done", { label: "B done" });
    assert.ok(forC.body.approval);
    await decide(h, forC.body.approval.id, "approved");
    const wip = await waitUntil(async () => {
      const approval = (await h.json<ApiBody<"getApprovalsById">>(`/api/approvals/${forC.body.approval!.id}`)).body.approval;
      return approval.executionStatus === "failed" ? approval : null;
    }, { label: "C refused" });
    assert.match(wip.executionError ?? "", /WIP limit is 1/);
    assert.equal(await layout(h, board.id), { todo: ["C"], doing: ["A"], done: ["B"] });
  });
});

t("restoring an archived card into a requireApprovalFor column waits for the approval too", async () => {
  await withTestHost(async (h) => {
    const board = await createBoard(h, { settings: { requireApprovalFor: ["done"] } });
    const a = await createCard(h, board.id, { title: "A" });
    assert.is((await h.json<ApiBody<"deleteCardsById">>(`/api/cards/${a.id}`, { method: "DELETE", session: true })).status, 200);
    const res = await patchCard(h, a.id, { archived: false, column: "done" });
    assert.is(res.status, 202, JSON.stringify(res.body));
    assert.ok((await card(h, a.id)).card.archivedAt, "still archived before the decision");
    assert.ok(res.body.approval);
    await decide(h, res.body.approval.id, "approved");
    const restored = await waitUntil(async () => {
      const now = await card(h, a.id);
      return now.card.archivedAt === null ? now : null;
    }, { label: "approved restore" });
    assert.is(restored.card.column, "done");
    assert.equal(await layout(h, board.id), { todo: [], doing: [], done: ["A"] });
  });
});

t("commentRequiredFor: a move without a comment is refused; with one, the comment is stored", async () => {
  await withTestHost(async (h) => {
    const board = await createBoard(h, { settings: GATED });
    const a = await createCard(h, board.id);
    assertError(await patchCard(h, a.id, { column: "doing" }), 400, "CARD_COMMENT_REQUIRED");
    assert.is((await card(h, a.id)).card.column, "todo");
    assertError(await h.json<ApiBody<"postBoardsCardsById">>(`/api/boards/${board.id}/cards`, { method: "POST", body: { title: "x", column: "doing" } }), 400, "CARD_COMMENT_REQUIRED");
    assertError(await h.json<ApiBody<"postBoardsCardsById">>(`/api/boards/${board.id}/cards`, { method: "POST", body: { title: "x", column: "done" } }), 409, "BOARD_COLUMN_GATED");
    const res = await patchCard(h, a.id, { column: "doing", comment: "starting now" }, { "x-agent-id": "thor" });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.ok(res.body.card);
    assert.is(res.body.card.column, "doing");
    const { comments } = await h.client.getCardsCommentsById({ id: a.id });
    assert.equal(comments.map((c) => [c.content, c.author]), [["starting now", "thor"]]);
    assert.equal((await card(h, a.id)).history.map((r) => r.action), ["created", "moved", "commented"]);
  });
});

t("delegation round trip: the other squad's board gets a card for its lead; its completion completes the source", async () => {
  await withTestHost(async (h) => {
    const mine = await createBoard(h, { name: "Social", squad: "social" });
    const theirs = await createBoard(h, { name: "Dev", squad: "dev_squad", settings: { lead: "thor" } });
    const source = await createCard(h, mine.id, { title: "Build the landing page", labels: ["web"], column: "doing", description: "details" });
    const res = await h.json<ApiBody<"postCardsDelegateById">>(`/api/cards/${source.id}/delegate`, { method: "POST", body: { boardId: theirs.id, message: "by Friday" }, headers: { "x-agent-id": "freya" } });
    assert.is(res.status, 201, JSON.stringify(res.body));
    const delegated = res.body.delegatedCard;
    assert.is(res.body.card.delegatedTo, delegated.id);
    assert.is(delegated.delegatedFrom, source.id);
    assert.is(delegated.boardId, theirs.id);
    assert.is(delegated.assignee, "thor");
    assert.is(delegated.column, "todo");
    assert.equal(delegated.labels, ["web", "delegated"]);
    assert.is(delegated.description, "details\n\nby Friday");
    assertError(await h.json<ApiBody<"postCardsDelegateById">>(`/api/cards/${source.id}/delegate`, { method: "POST", body: { boardId: theirs.id } }), 409, "CARD_ALREADY_DELEGATED");

    assert.is((await patchCard(h, delegated.id, { column: "doing" })).status, 200);
    assert.is((await card(h, source.id)).card.completedAt, null);
    assert.is((await patchCard(h, delegated.id, { column: "done" })).status, 200);
    const followed = await card(h, source.id);
    assert.is(followed.card.column, "done");
    assert.ok(followed.card.completedAt);
    assert.equal(followed.history.map((r) => r.action), ["created", "delegated", "moved", "completed"]);
    assert.equal(await layout(h, mine.id), { todo: [], doing: [], done: ["Build the landing page"] });
  });
});

t("delegation refusals: same board, no lead, unknown board, full first column", async () => {
  await withTestHost(async (h) => {
    const mine = await createBoard(h);
    const leaderless = await createBoard(h, { name: "No lead" });
    const full = await createBoard(h, { name: "Full", columns: [{ id: "in", name: "In", wipLimit: 1 }], settings: { lead: "odin" } });
    await createCard(h, full.id);
    const source = await createCard(h, mine.id);
    const delegate = (body: Record<string, unknown>) => h.json<ApiBody<"postCardsDelegateById">>(`/api/cards/${source.id}/delegate`, { method: "POST", body });
    assertError(await delegate({ boardId: mine.id }), 400, "CARD_DELEGATION_SAME_BOARD");
    assertError(await delegate({ boardId: leaderless.id }), 400, "CARD_DELEGATION_LEAD_REQUIRED");
    assertError(await delegate({ boardId: "missing" }), 404, "BOARD_NOT_FOUND");
    assertError(await delegate({ boardId: full.id }), 409, "WIP_LIMIT_REACHED");
    assertError(await delegate({}), 400, "VALIDATION_FAILED");
    assert.is((await card(h, source.id)).card.delegatedTo, null);
    assert.equal((await layout(h, leaderless.id)).todo, []);
    const ok = await delegate({ boardId: leaderless.id, assignee: "tyr" });
    assert.is(ok.status, 201);
    assert.is(ok.body.delegatedCard.assignee, "tyr");
  });
});

t("every change reaches SSE clients as a public boards.* event", async () => {
  await withTestHost(async (h) => {
    const sse = await openSse(h.url);
    try {
      const named = (name: string) => sse.next((f) => f.data?.type === "event" && f.data.name === name, 3_000, name);
      const board = await createBoard(h);
      assert.is((await named("boards.board.created")).data.payload.board.id, board.id);
      const c = await createCard(h, board.id);
      assert.is((await named("boards.card.created")).data.payload.card.id, c.id);
      await patchCard(h, c.id, { column: "doing" });
      const moved = (await named("boards.card.moved")).data.payload;
      assert.equal([moved.card.column, moved.changes[0].action, moved.by], ["doing", "moved", "user"]);
      await patchCard(h, c.id, { title: "New" });
      await named("boards.card.updated");
      await h.json<ApiBody<"postCardsCommentsById">>(`/api/cards/${c.id}/comments`, { method: "POST", body: { content: "hi" } });
      assert.is((await named("boards.card.commented")).data.payload.comment.content, "hi");
      await h.json<ApiBody<"postCardsClaimById">>(`/api/cards/${c.id}/claim`, { method: "POST", body: { agentId: "thor" } });
      await named("boards.card.claimed");
      await h.json<ApiBody<"deleteCardsById">>(`/api/cards/${c.id}`, { method: "DELETE", session: true });
      await named("boards.card.archived");
      await patchCard(h, c.id, { archived: false });
      await named("boards.card.restored");
      await h.json<ApiBody<"deleteCardsById">>(`/api/cards/${c.id}?hard=true`, { method: "DELETE", session: true });
      assert.equal((await named("boards.card.deleted")).data.payload, { id: c.id, boardId: board.id });
      await h.json<ApiBody<"patchBoardsById">>(`/api/boards/${board.id}`, { method: "PATCH", body: { name: "B" } });
      await named("boards.board.updated");
      await h.json<ApiBody<"deleteBoardsById">>(`/api/boards/${board.id}`, { method: "DELETE", session: true });
      await named("boards.board.archived");
      await h.json<ApiBody<"patchBoardsById">>(`/api/boards/${board.id}`, { method: "PATCH", body: { archived: false } });
      await named("boards.board.restored");
      await h.json<ApiBody<"deleteBoardsById">>(`/api/boards/${board.id}?hard=true`, { method: "DELETE", session: true });
      assert.equal((await named("boards.board.deleted")).data.payload, { id: board.id, cards: 0 });
    } finally {
      sse.close();
    }
  });
});

t.run();

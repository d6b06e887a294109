// Cards through HTTP: create, read with history, moves within and across columns with dense
// positions, WIP limits (also under 20 concurrent moves), claims (20 agents, one winner),
// archive and restore, hard delete, comments, bad fields and links to missing work records.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { withTestHost } from "../../helpers/start-test-host.ts";
import { waitUntil } from "../../helpers/wait.ts";
import { assertError, createBoard, createCard, layout, patchCard } from "./helpers.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite("boards: cards");

t("a card is created with defaults, read with its history, listed, changed field by field", async () => {
  await withTestHost(async (h) => {
    const board = await createBoard(h);
    const card = await createCard(h, board.id, { title: "Write docs", labels: ["docs"], checklist: [{ text: "outline", checked: false }] });
    assert.is(card.column, "todo");
    assert.is(card.position, 0);
    assert.is(card.priority, "medium");
    assert.is(card.progress, 0);
    assert.is(card.createdBy, "user");
    assert.equal(card.labels, ["docs"]);
    assert.equal(card.attachments, []);

    const patched = await patchCard(h, card.id, { title: "Write the docs", priority: "high", progress: 50, attachments: [{ name: "spec", url: "https://example.com/spec" }] }, { "x-agent-id": "loki" });
    assert.is(patched.status, 200, JSON.stringify(patched.body));
    assert.ok(patched.body.card);
    assert.is(patched.body.card.title, "Write the docs");
    const got = await h.json<ApiBody<"getCardsById">>(`/api/cards/${card.id}`);
    assert.equal(got.body.card, patched.body.card);
    const rows = got.body.history.map((r) => [r.action, r.field, r.from, r.to, r.by]);
    assert.equal(rows, [
      ["created", null, null, "todo", "user"],
      ["updated", "title", "Write docs", "Write the docs", "loki"],
      ["updated", "priority", "medium", "high", "loki"],
      ["updated", "attachments", "[]", JSON.stringify([{ name: "spec", url: "https://example.com/spec" }]), "loki"],
      ["updated", "progress", "0", "50", "loki"],
    ]);
    for (const row of got.body.history) assert.equal(Object.keys(row).sort(), ["action", "at", "by", "cardId", "field", "from", "id", "to"]);
    // Sending the same values again changes nothing and writes no history.
    assert.is((await patchCard(h, card.id, { title: "Write the docs" })).status, 200);
    assert.is((await h.json<ApiBody<"getCardsById">>(`/api/cards/${card.id}`)).body.history.length, 5);

    const listed = await h.json<ApiBody<"getBoardsCardsById">>(`/api/boards/${board.id}/cards?column=todo`);
    assert.equal(listed.body.cards.map((c) => c.id), [card.id]);
    assert.equal((await h.json<ApiBody<"getBoardsCardsById">>(`/api/boards/${board.id}/cards?assignee=nobody`)).body.cards, []);
  });
});

t("moves within and across columns keep positions dense; deletes and archives close the gap", async () => {
  await withTestHost(async (h) => {
    const board = await createBoard(h);
    const ids: Record<string, string> = {};
    for (const title of ["A", "B", "C", "D"]) ids[title] = (await createCard(h, board.id, { title })).id;
    assert.equal((await layout(h, board.id)).todo, ["A", "B", "C", "D"]);
    // Inserted at a position: the others shift down.
    ids.E = (await createCard(h, board.id, { title: "E", position: 1 })).id;
    assert.equal((await layout(h, board.id)).todo, ["A", "E", "B", "C", "D"]);
    assert.is((await patchCard(h, ids.D!, { position: 0 })).status, 200);
    assert.equal((await layout(h, board.id)).todo, ["D", "A", "E", "B", "C"]);
    assert.is((await patchCard(h, ids.D!, { position: 3 })).status, 200);
    assert.equal((await layout(h, board.id)).todo, ["A", "E", "B", "D", "C"]);
    assert.is((await patchCard(h, ids.E!, { column: "doing" })).status, 200);
    assert.is((await patchCard(h, ids.A!, { column: "doing", position: 0 })).status, 200);
    assert.equal(await layout(h, board.id), { todo: ["B", "D", "C"], doing: ["A", "E"], done: [] });
    // A position past the column's end is the end.
    const far = await patchCard(h, ids.B!, { column: "done", position: 999_999 });
    assert.ok(far.body.card);
    assert.is(far.body.card.position, 0);
    assert.ok(far.body.card.completedAt, "entering the last column completes the card");
    assert.is((await patchCard(h, ids.B!, { column: "todo", position: 1 })).body.card?.completedAt, null);
    assert.equal((await layout(h, board.id)).todo, ["D", "B", "C"]);
    assert.is((await h.json<ApiBody<"deleteCardsById">>(`/api/cards/${ids.D}?hard=true`, { method: "DELETE", session: true })).status, 200);
    assert.is((await h.json<ApiBody<"deleteCardsById">>(`/api/cards/${ids.B}`, { method: "DELETE", session: true })).status, 200);
    assert.equal(await layout(h, board.id), { todo: ["C"], doing: ["A", "E"], done: [] });
    const history = (await h.json<ApiBody<"getCardsById">>(`/api/cards/${ids.A}`)).body.history;
    assert.equal(history.at(-1)?.action, "moved");
    assert.equal([history.at(-1)?.field, history.at(-1)?.from, history.at(-1)?.to], ["column", "todo", "doing"]);
    const within = (await h.json<ApiBody<"getCardsById">>(`/api/cards/${ids.D}`));
    assertError(within, 404, "CARD_NOT_FOUND");
  });
});

t("unknown columns, negative, fractional and huge positions are refused with nothing moved", async () => {
  await withTestHost(async (h) => {
    const board = await createBoard(h);
    const card = await createCard(h, board.id);
    assertError(await patchCard(h, card.id, { column: "nope" }), 400, "BOARD_COLUMN_UNKNOWN");
    assertError(await h.json<ApiBody<"postBoardsCardsById">>(`/api/boards/${board.id}/cards`, { method: "POST", body: { title: "x", column: "nope" } }), 400, "BOARD_COLUMN_UNKNOWN");
    for (const position of [-1, 1.5, 1_000_001, "0", null, 1e309]) {
      assertError(await patchCard(h, card.id, { position }), 400, "VALIDATION_FAILED");
    }
    assertError(await patchCard(h, card.id, { column: "doing", title: "" }), 400, "VALIDATION_FAILED");
    assertError(await patchCard(h, "missing", { column: "doing" }), 404, "CARD_NOT_FOUND");
    assertError(await patchCard(h, card.id, { archived: true, column: "doing" }), 400, "VALIDATION_FAILED");
    const after = await h.json<ApiBody<"getCardsById">>(`/api/cards/${card.id}`);
    assert.is(after.body.card.column, "todo");
    assert.is(after.body.history.length, 1);
  });
});

t("checklists, labels, attachments and other fields of the wrong shape are refused", async () => {
  await withTestHost(async (h) => {
    const board = await createBoard(h);
    const card = await createCard(h, board.id);
    const bad: Record<string, unknown>[] = [
      { checklist: "buy milk" },
      { checklist: [{ text: "x" }] },
      { checklist: [{ text: "x", checked: "yes" }] },
      { checklist: [{ text: "x", done: true }] },
      { checklist: [{ text: "", checked: false }] },
      { labels: "a,b" },
      { labels: [1, 2] },
      { labels: [""] },
      { labels: Array.from({ length: 31 }, (_, i) => `l${i}`) },
      { attachments: [{ name: "x", url: "javascript:alert(1)" }] },
      { attachments: [{ name: "x" }] },
      { priority: "critical-ish" },
      { progress: 101 },
      { dueDate: "2026-02-30" },
      { title: 42 },
      { title: "a\u0000b" },
      { createdAt: "2026-01-01T00:00:00.000Z" },
      { boardId: "other" },
      { __proto__: { polluted: true }, extra: 1 },
    ];
    for (const body of bad) assertError(await patchCard(h, card.id, body), 400, "VALIDATION_FAILED");
    assertError(await h.json<ApiBody<"postBoardsCardsById">>(`/api/boards/${board.id}/cards`, { method: "POST", body: {} }), 400, "VALIDATION_FAILED");
    assertError(await h.json<ApiBody<"postBoardsCardsById">>(`/api/boards/${board.id}/cards`, { method: "POST", body: { title: "x", checklist: {} } }), 400, "VALIDATION_FAILED");
    assert.is(({} as Record<string, unknown>).polluted, undefined);
    const after = await h.json<ApiBody<"getCardsById">>(`/api/cards/${card.id}`);
    assert.is(after.body.history.length, 1);
    assert.equal((await layout(h, board.id)).todo, ["Card"]);
  });
});

t("WIP limit: a full column refuses; 20 concurrent moves into one free slot give exactly one success", async () => {
  await withTestHost(async (h) => {
    const board = await createBoard(h);
    await createCard(h, board.id, { title: "busy", column: "doing" });
    const cards = [];
    for (let i = 0; i < 20; i++) cards.push(await createCard(h, board.id, { title: `c${i}` }));
    const results = await Promise.all(cards.map((c) => patchCard(h, c.id, { column: "doing" })));
    const statuses = results.map((r) => r.status);
    assert.is(statuses.filter((s) => s === 200).length, 1, JSON.stringify(statuses));
    for (const r of results.filter((r) => r.status !== 200)) assertError(r, 409, "WIP_LIMIT_REACHED");
    const now = await layout(h, board.id);
    assert.is(now.doing!.length, 2);
    assert.is(now.todo!.length, 19);
    assertError(await h.json<ApiBody<"postBoardsCardsById">>(`/api/boards/${board.id}/cards`, { method: "POST", body: { title: "x", column: "doing" } }), 409, "WIP_LIMIT_REACHED");
    // Restoring an archived card into a full column is refused the same way.
    const mover = now.doing![1]!;
    const moverId = (await h.json<ApiBody<"getBoardsCardsById">>(`/api/boards/${board.id}/cards?column=doing`)).body.cards.find((c) => c.title === mover)?.id;
    assert.ok(moverId);
    assert.is((await h.json<ApiBody<"deleteCardsById">>(`/api/cards/${moverId}`, { method: "DELETE", session: true })).status, 200);
    assert.is((await patchCard(h, cards[0]!.id === moverId ? cards[1]!.id : cards[0]!.id, { column: "doing" })).status, 200);
    assertError(await patchCard(h, moverId, { archived: false }), 409, "WIP_LIMIT_REACHED");
  });
});

t("20 agents claiming one card: one wins, the others get 409 CARD_ALREADY_CLAIMED", async () => {
  await withTestHost(async (h) => {
    const board = await createBoard(h);
    const card = await createCard(h, board.id);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => h.json<ApiBody<"postCardsClaimById">>(`/api/cards/${card.id}/claim`, { method: "POST", body: { agentId: `agent-${i}` } })));
    const winners = results.filter((r) => r.status === 200);
    assert.is(winners.length, 1, JSON.stringify(results.map((r) => r.status)));
    for (const r of results.filter((r) => r.status !== 200)) assertError(r, 409, "CARD_ALREADY_CLAIMED");
    const got = await h.json<ApiBody<"getCardsById">>(`/api/cards/${card.id}`);
    assert.is(got.body.card.assignee, winners[0]!.body.card.assignee);
    const claims = got.body.history.filter((r) => r.action === "claimed");
    assert.equal(claims.map((r) => [r.field, r.from, r.to, r.by]), [["assignee", null, got.body.card.assignee, got.body.card.assignee]]);
    assertError(await h.json<ApiBody<"postCardsClaimById">>(`/api/cards/${card.id}/claim`, { method: "POST", body: {} }), 400, "VALIDATION_FAILED");
    assertError(await h.json<ApiBody<"postCardsClaimById">>(`/api/cards/missing/claim`, { method: "POST", body: { agentId: "a" } }), 404, "CARD_NOT_FOUND");
  });
});

t("archive and restore: out of the column while archived, back at its end, history rows for both", async () => {
  await withTestHost(async (h) => {
    const board = await createBoard(h);
    const a = await createCard(h, board.id, { title: "A" });
    await createCard(h, board.id, { title: "B" });
    const archived = await h.json<ApiBody<"deleteCardsById">>(`/api/cards/${a.id}`, { method: "DELETE", session: true });
    assert.is(archived.status, 200, JSON.stringify(archived.body));
    assert.ok(archived.body.card);
    assert.ok(archived.body.card.archivedAt);
    assert.equal((await layout(h, board.id)).todo, ["B"]);
    assert.equal((await h.json<ApiBody<"getBoardsCardsById">>(`/api/boards/${board.id}/cards?archived=true`)).body.cards.map((c) => c.id), [a.id]);
    assertError(await patchCard(h, a.id, { title: "x" }), 409, "CARD_ARCHIVED");
    assertError(await h.json<ApiBody<"postCardsClaimById">>(`/api/cards/${a.id}/claim`, { method: "POST", body: { agentId: "x" } }), 409, "CARD_ARCHIVED");
    const restored = await patchCard(h, a.id, { archived: false });
    assert.is(restored.status, 200);
    assert.ok(restored.body.card);
    assert.is(restored.body.card.archivedAt, null);
    assert.equal((await layout(h, board.id)).todo, ["B", "A"]);
    const actions = (await h.json<ApiBody<"getCardsById">>(`/api/cards/${a.id}`)).body.history.map((r) => r.action);
    assert.equal(actions, ["created", "archived", "restored"]);
  });
});

t("comments: listed oldest first, each also a history row; a hard-deleted card's comments and history are gone", async () => {
  await withTestHost(async (h) => {
    const board = await createBoard(h);
    const card = await createCard(h, board.id);
    const first = await h.json<ApiBody<"postCardsCommentsById">>(`/api/cards/${card.id}/comments`, { method: "POST", body: { content: "first 😀", author: "odin" } });
    assert.is(first.status, 201, JSON.stringify(first.body));
    assert.equal(Object.keys(first.body.comment).sort(), ["author", "cardId", "content", "createdAt", "id"]);
    await h.json<ApiBody<"postCardsCommentsById">>(`/api/cards/${card.id}/comments`, { method: "POST", body: { content: "second" }, headers: { "x-agent-id": "thor" } });
    const list = await h.json<ApiBody<"getCardsCommentsById">>(`/api/cards/${card.id}/comments`);
    assert.equal(list.body.comments.map((c) => [c.content, c.author]), [["first 😀", "odin"], ["second", "thor"]]);
    const history = (await h.json<ApiBody<"getCardsById">>(`/api/cards/${card.id}`)).body.history;
    assert.equal(history.filter((r) => r.action === "commented").map((r) => [r.to, r.by]), [["first 😀", "odin"], ["second", "thor"]]);
    assertError(await h.json<ApiBody<"postCardsCommentsById">>(`/api/cards/${card.id}/comments`, { method: "POST", body: { content: "  " } }), 400, "VALIDATION_FAILED");
    assert.is((await h.json<ApiBody<"deleteCardsById">>(`/api/cards/${card.id}?hard=true`, { method: "DELETE" })).status, 401);
    assert.is((await h.json<ApiBody<"deleteCardsById">>(`/api/cards/${card.id}?hard=true`, { method: "DELETE", session: true })).status, 200);
    assertError(await h.json<ApiBody<"getCardsById">>(`/api/cards/${card.id}`), 404, "CARD_NOT_FOUND");
    assertError(await h.json<ApiBody<"getCardsCommentsById">>(`/api/cards/${card.id}/comments`), 404, "CARD_NOT_FOUND");
    assertError(await h.json<ApiBody<"postCardsCommentsById">>(`/api/cards/${card.id}/comments`, { method: "POST", body: { content: "late" } }), 404, "CARD_NOT_FOUND");
  });
});

t("links to stories, epics and sprints must exist and are cleared when those are deleted", async () => {
  await withTestHost(async (h) => {
    const board = await createBoard(h);
    const story = (await h.json<ApiBody<"postStories">>("/api/stories", { method: "POST", body: { title: "S" } })).body;
    const epic = (await h.json<ApiBody<"postEpics">>("/api/epics", { method: "POST", body: { title: "E" } })).body;
    const sprint = (await h.json<ApiBody<"postSprints">>("/api/sprints", { method: "POST", body: { name: "Sp" } })).body;
    for (const field of ["storyId", "epicId", "sprintId"]) {
      assertError(await h.json<ApiBody<"postBoardsCardsById">>(`/api/boards/${board.id}/cards`, { method: "POST", body: { title: "x", [field]: "missing" } }), 400, "CARD_LINK_NOT_FOUND");
    }
    assert.equal((await layout(h, board.id)).todo, []);
    const card = await createCard(h, board.id, { storyId: story.id, epicId: epic.id });
    assertError(await patchCard(h, card.id, { sprintId: "missing" }), 400, "CARD_LINK_NOT_FOUND");
    assert.is((await patchCard(h, card.id, { sprintId: sprint.id })).status, 200);
    assertError(await patchCard(h, card.id, { parentCardId: card.id }), 400, "CARD_PARENT_INVALID");
    assertError(await patchCard(h, card.id, { parentCardId: "missing" }), 400, "CARD_PARENT_INVALID");

    assert.is((await h.json<ApiBody<"deleteStories">>(`/api/stories?id=${story.id}`, { method: "DELETE", session: true })).status, 200);
    assert.is((await h.json<ApiBody<"deleteEpics">>(`/api/epics?id=${epic.id}`, { method: "DELETE", session: true })).status, 200);
    assert.is((await h.json<ApiBody<"deleteSprints">>(`/api/sprints?id=${sprint.id}`, { method: "DELETE", session: true })).status, 200);
    const cleared = await waitUntil(async () => {
      const got = (await h.json<ApiBody<"getCardsById">>(`/api/cards/${card.id}`)).body;
      return got.card.storyId === null && got.card.epicId === null && got.card.sprintId === null ? got : null;
    }, { label: "links cleared" });
    const unlinked = cleared.history.filter((r) => r.action === "unlinked").map((r) => [r.field, r.from, r.to]).sort();
    assert.equal(unlinked, [["epicId", epic.id, null], ["sprintId", sprint.id, null], ["storyId", story.id, null]]);
  });
});

t.run();

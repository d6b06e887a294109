// Boards through HTTP: create (columns or template), list, read with cards, change, archive,
// restore and hard delete; malformed columns and settings are refused with nothing written.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { withTestHost } from "../../helpers/start-test-host.ts";
import { assertError, COLUMNS, createBoard, createCard } from "./helpers.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite("boards: boards");

t("templates list kanban, sprint, content, support and blank; a board starts from one", async () => {
  await withTestHost(async (h) => {
    const res = await h.json<ApiBody<"getBoardsTemplates">>("/api/boards/templates");
    assert.is(res.status, 200);
    const ids = res.body.templates.map((x) => x.id);
    for (const id of ["kanban", "sprint", "content", "support", "blank"]) assert.ok(ids.includes(id), id);
    const board = await createBoard(h, { columns: undefined, template: "content" });
    assert.equal(board.columns, res.body.templates.find((x) => x.id === "content")?.columns);
    assert.equal(board.settings.requireApprovalFor, ["published"]);
    assert.is(board.type, "custom");
    assertError(await h.json<ApiBody<"postBoards">>("/api/boards", { method: "POST", body: { name: "x", template: "nope" } }), 400, "BOARD_TEMPLATE_NOT_FOUND");
    assertError(await h.json<ApiBody<"postBoards">>("/api/boards", { method: "POST", body: { name: "x" } }), 400, "BOARD_COLUMNS_REQUIRED");
  });
});

t("create, list, get with cards, patch, archive, restore", async () => {
  await withTestHost(async (h) => {
    const board = await createBoard(h, { description: "d", squad: "dev_squad", settings: { lead: "thor" } });
    assert.equal(board.columns, COLUMNS);
    assert.is(board.type, "kanban");
    assert.is(board.owner, "user");
    assert.is(board.archivedAt, null);
    const card = await createCard(h, board.id, { title: "First" });
    const got = await h.json<ApiBody<"getBoardsById">>(`/api/boards/${board.id}`);
    assert.is(got.status, 200);
    assert.match(got.headers.get("content-type")!, /application\/json/);
    assert.equal(got.body.board, board);
    assert.equal(got.body.cards, [card]);

    const patched = await h.json<ApiBody<"patchBoardsById">>(`/api/boards/${board.id}`, { method: "PATCH", body: { name: "Renamed", columns: [...COLUMNS, { id: "qa", name: "QA", color: "#abc" }] } });
    assert.is(patched.status, 200, JSON.stringify(patched.body));
    assert.is(patched.body.board.name, "Renamed");
    assert.is(patched.body.board.columns.length, 4);
    // The cached view follows the change.
    assert.is((await h.json<ApiBody<"getBoardsById">>(`/api/boards/${board.id}`)).body.board.name, "Renamed");

    const listed = await h.json<ApiBody<"getBoards">>("/api/boards?squad=dev_squad");
    assert.equal(listed.body.boards.map((b) => b.id), [board.id]);

    const archived = await h.json<ApiBody<"deleteBoardsById">>(`/api/boards/${board.id}`, { method: "DELETE", session: true });
    assert.is(archived.status, 200, JSON.stringify(archived.body));
    assert.ok(archived.body.board);
    assert.ok(archived.body.board.archivedAt);
    assert.equal((await h.json<ApiBody<"getBoards">>("/api/boards")).body.boards, []);
    assert.equal((await h.json<ApiBody<"getBoards">>("/api/boards?archived=true")).body.boards.map((b) => b.id), [board.id]);
    assertError(await h.json<ApiBody<"postBoardsCardsById">>(`/api/boards/${board.id}/cards`, { method: "POST", body: { title: "x" } }), 409, "BOARD_ARCHIVED");
    assertError(await h.json<ApiBody<"patchCardsById">>(`/api/cards/${card.id}`, { method: "PATCH", body: { title: "x" } }), 409, "BOARD_ARCHIVED");

    const restored = await h.json<ApiBody<"patchBoardsById">>(`/api/boards/${board.id}`, { method: "PATCH", body: { archived: false } });
    assert.is(restored.body.board.archivedAt, null);
    assert.equal((await h.json<ApiBody<"getBoards">>("/api/boards")).body.boards.map((b) => b.id), [board.id]);
  });
});

t("DELETE needs the session token; ?hard=true removes the board, its cards, comments and history", async () => {
  await withTestHost(async (h) => {
    const board = await createBoard(h);
    const other = await createBoard(h, { name: "Other" });
    const card = await createCard(h, board.id);
    const kept = await createCard(h, other.id);
    assert.is((await h.json<ApiBody<"postCardsCommentsById">>(`/api/cards/${card.id}/comments`, { method: "POST", body: { content: "hello" } })).status, 201);
    assert.is((await h.json<ApiBody<"deleteBoardsById">>(`/api/boards/${board.id}?hard=true`, { method: "DELETE" })).status, 401);
    assert.is((await h.json<ApiBody<"getBoardsById">>(`/api/boards/${board.id}`)).status, 200);

    const res = await h.json<ApiBody<"deleteBoardsById">>(`/api/boards/${board.id}?hard=true`, { method: "DELETE", session: true });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.deleted, { id: board.id, cards: 1, comments: 1, history: 2 });
    assertError(await h.json<ApiBody<"getBoardsById">>(`/api/boards/${board.id}`), 404, "BOARD_NOT_FOUND");
    assertError(await h.json<ApiBody<"getCardsById">>(`/api/cards/${card.id}`), 404, "CARD_NOT_FOUND");
    assertError(await h.json<ApiBody<"getCardsCommentsById">>(`/api/cards/${card.id}/comments`), 404, "CARD_NOT_FOUND");
    assert.is((await h.json<ApiBody<"getCardsById">>(`/api/cards/${kept.id}`)).status, 200);
    assertError(await h.json<ApiBody<"deleteBoardsById">>(`/api/boards/${board.id}?hard=true`, { method: "DELETE", session: true }), 404, "BOARD_NOT_FOUND");
  });
});

t("malformed columns and settings are refused and nothing is written", async () => {
  await withTestHost(async (h) => {
    const bad: [string, unknown][] = [
      ["columns not an array", "todo,doing"],
      ["columns as a JSON string", JSON.stringify(COLUMNS)],
      ["empty columns", []],
      ["duplicate ids", [{ id: "a", name: "A" }, { id: "a", name: "B" }]],
      ["column without a name", [{ id: "a" }]],
      ["unknown column field", [{ id: "a", name: "A", extra: 1 }]],
      ["wipLimit zero", [{ id: "a", name: "A", wipLimit: 0 }]],
      ["wipLimit not an integer", [{ id: "a", name: "A", wipLimit: 1.5 }]],
      ["column id with a slash", [{ id: "a/b", name: "A" }]],
      ["column is null", [null]],
    ];
    for (const [label, columns] of bad) {
      const res = await h.json<ApiBody<"postBoards">>("/api/boards", { method: "POST", body: { name: "x", columns } });
      assertError(res, 400, "VALIDATION_FAILED");
      assert.ok(JSON.stringify(res.body.error?.details).includes("columns"), label);
    }
    assertError(await h.json<ApiBody<"postBoards">>("/api/boards", { method: "POST", body: { name: "x", columns: COLUMNS, settings: { requireApprovalFor: ["nope"] } } }), 400, "BOARD_COLUMN_UNKNOWN");
    assertError(await h.json<ApiBody<"postBoards">>("/api/boards", { method: "POST", body: { name: "x", columns: COLUMNS, settings: { other: 1 } } }), 400, "VALIDATION_FAILED");
    assertError(await h.json<ApiBody<"postBoards">>("/api/boards", { method: "POST", body: { name: "", columns: COLUMNS } }), 400, "VALIDATION_FAILED");
    assertError(await h.json<ApiBody<"postBoards">>("/api/boards", { method: "POST", body: "{not json", headers: { "content-type": "application/json" } }), 400, "INVALID_JSON");
    assert.equal((await h.json<ApiBody<"getBoards">>("/api/boards")).body.boards, []);

    const board = await createBoard(h);
    const dup = await h.json<ApiBody<"patchBoardsById">>(`/api/boards/${board.id}`, { method: "PATCH", body: { columns: [{ id: "todo", name: "A" }, { id: "todo", name: "B" }] } });
    assertError(dup, 400, "VALIDATION_FAILED");
    assertError(await h.json<ApiBody<"patchBoardsById">>(`/api/boards/${board.id}`, { method: "PATCH", body: {} }), 400, "VALIDATION_FAILED");
    assertError(await h.json<ApiBody<"patchBoardsById">>(`/api/boards/nope`, { method: "PATCH", body: { name: "x" } }), 404, "BOARD_NOT_FOUND");
    assertError(await h.json<ApiBody<"getBoardsById">>(`/api/boards/..%2f..`), 400, "VALIDATION_FAILED");
    assert.equal((await h.json<ApiBody<"getBoardsById">>(`/api/boards/${board.id}`)).body.board.columns, COLUMNS);
  });
});

t("a column that holds cards (archived ones too) cannot be removed; an empty one can", async () => {
  await withTestHost(async (h) => {
    const board = await createBoard(h);
    const card = await createCard(h, board.id, { column: "doing" });
    const without = COLUMNS.filter((c) => c.id !== "doing");
    assertError(await h.json<ApiBody<"patchBoardsById">>(`/api/boards/${board.id}`, { method: "PATCH", body: { columns: without } }), 409, "BOARD_COLUMN_NOT_EMPTY");
    assert.is((await h.json<ApiBody<"deleteCardsById">>(`/api/cards/${card.id}`, { method: "DELETE", session: true })).status, 200);
    assertError(await h.json<ApiBody<"patchBoardsById">>(`/api/boards/${board.id}`, { method: "PATCH", body: { columns: without } }), 409, "BOARD_COLUMN_NOT_EMPTY");
    assert.equal((await h.json<ApiBody<"getBoardsById">>(`/api/boards/${board.id}`)).body.board.columns, COLUMNS);
    assert.is((await h.json<ApiBody<"deleteCardsById">>(`/api/cards/${card.id}?hard=true`, { method: "DELETE", session: true })).status, 200);
    const res = await h.json<ApiBody<"patchBoardsById">>(`/api/boards/${board.id}`, { method: "PATCH", body: { columns: without } });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.board.columns, without);
    // A policy must name a column the board keeps.
    assertError(await h.json<ApiBody<"patchBoardsById">>(`/api/boards/${board.id}`, { method: "PATCH", body: { settings: { commentRequiredFor: ["doing"] } } }), 400, "BOARD_COLUMN_UNKNOWN");
  });
});

t.run();

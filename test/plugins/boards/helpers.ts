// Shared steps of the boards suites: create a board and cards through HTTP, asserting each answer.
import * as assert from "uvu/assert";
import type { TestHost } from "../../helpers/start-test-host.ts";
import type { ApiBody } from "@muster/plugin/testing";

export const COLUMNS = [
  { id: "todo", name: "To do" },
  { id: "doing", name: "Doing", wipLimit: 2 },
  { id: "done", name: "Done" },
];

export async function createBoard(h: TestHost, body: Record<string, unknown> = {}) {
  const res = await h.json<ApiBody<"postBoards">>("/api/boards", { method: "POST", body: { name: "Team", columns: COLUMNS, ...body } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body.board;
}

export async function createCard(h: TestHost, boardId: string, body: Record<string, unknown> = {}) {
  const res = await h.json<ApiBody<"postBoardsCardsById">>(`/api/boards/${boardId}/cards`, { method: "POST", body: { title: "Card", ...body } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body.card;
}

export const patchCard = (h: TestHost, id: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
  h.json<ApiBody<"patchCardsById">>(`/api/cards/${id}`, { method: "PATCH", body, headers });

/** The titles of each column's cards in position order, checking that positions are 0..n-1. */
export async function layout(h: TestHost, boardId: string): Promise<Record<string, string[]>> {
  const res = await h.json<ApiBody<"getBoardsById">>(`/api/boards/${boardId}`);
  assert.is(res.status, 200, JSON.stringify(res.body));
  const out: Record<string, string[]> = {};
  for (const column of res.body.board.columns) {
    const cards = res.body.cards.filter((c) => c.column === column.id);
    assert.equal(cards.map((c) => c.position), cards.map((_: unknown, i: number) => i), `positions of ${column.id} are dense and in order`);
    out[column.id] = cards.map((c) => c.title);
  }
  return out;
}

export function assertError(res: { status: number; body: { ok?: boolean; error?: { code: string } } | undefined }, status: number, code: string): void {
  assert.is(res.status, status, JSON.stringify(res.body));
  assert.is(res.body?.ok, false);
  assert.is(res.body?.error?.code, code, JSON.stringify(res.body));
}

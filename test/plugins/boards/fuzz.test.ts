// Random bodies against real boards and cards (the route fuzzer elsewhere mostly meets
// unknown ids): never a 5xx, always a coded error, and whatever was accepted, every column's
// positions are still 0..n-1. Seeded and bounded.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { withTestHost } from "../../helpers/start-test-host.ts";
import { createBoard, createCard, layout } from "./helpers.ts";
import type { Answer } from "@muster/plugin/testing";

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const ROUNDS = 300;

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = Math.imul(s ^ (s >>> 15), 1 | s);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const t = suite("boards: random input on real records");

t("random card and board changes never give a 5xx and keep positions dense", async () => {
  await withTestHost(async (h) => {
    const r = rng(SEED);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
    const board = await createBoard(h, { settings: { commentRequiredFor: ["done"] } });
    const other = await createBoard(h, { name: "Other", settings: { lead: "thor" } });
    const cards: string[] = [];
    for (let i = 0; i < 8; i++) cards.push((await createCard(h, board.id, { title: `c${i}`, column: pick(["todo", "doing", "done"]) === "doing" && i < 2 ? "doing" : "todo" })).id);
    const columns = ["todo", "doing", "done"];
    // Mostly plausible values, so that many requests pass validation and reach the store.
    const fields: Record<string, () => unknown> = {
      title: () => pick(["t", "🦀 title", "", 42]),
      column: () => pick([...columns, ...columns, "nope"]),
      position: () => pick([0, 1, 2, 5, 999_999, -1, 1.5]),
      archived: () => pick([true, false, false]),
      comment: () => pick(["why", "", "x".repeat(20)]),
      labels: () => pick([["a"], [], ["a", "b"], "a,b"]),
      checklist: () => pick([[{ text: "a", checked: true }], [], [{ text: "a" }]]),
      priority: () => pick(["low", "urgent", "critical-ish"]),
      progress: () => pick([0, 50, 100, 101]),
      assignee: () => pick([null, "thor"]),
      parentCardId: () => pick([null, pick(cards), "missing"]),
      storyId: () => pick([null, "missing"]),
      junk: () => 1,
    };
    const boardFields: Record<string, () => unknown> = {
      name: () => pick(["B", ""]),
      columns: () => pick([[{ id: "todo", name: "T" }, { id: "doing", name: "D", wipLimit: 2 }, { id: "done", name: "Done" }], [{ id: "todo", name: "T" }], [{ id: "a", name: "A" }, { id: "a", name: "B" }]]),
      settings: () => pick([{}, { commentRequiredFor: ["done"] }, { requireApprovalFor: ["nope"] }]),
      // Not true: an archived board refuses every card change, which would end the run's reach.
      archived: () => false,
    };
    const some = (from: Record<string, () => unknown>, n: number): Record<string, unknown> => Object.fromEntries(Array.from({ length: n }, () => { const key = pick(Object.keys(from)); return [key, from[key]!()]; }));
    for (let i = 0; i < ROUNDS; i++) {
      const card = pick(cards);
      const [method, path, make] = pick<readonly [string, string, () => unknown]>([
        ["PATCH", `/api/cards/${card}`, () => some(fields, 1 + Math.floor(r() * 2))],
        ["PATCH", `/api/cards/${card}`, () => some(fields, 1)],
        ["PATCH", `/api/cards/${card}`, () => ({ column: pick(columns), ...(r() < 0.5 ? { position: pick([0, 1, 3, 99]) } : {}), ...(r() < 0.5 ? { comment: "c" } : {}) })],
        ["POST", `/api/boards/${board.id}/cards`, () => ({ title: "new", ...some(fields, Math.floor(r() * 2)) })],
        ["PATCH", `/api/boards/${board.id}`, () => some(boardFields, 1)],
        ["POST", `/api/cards/${card}/claim`, () => ({ agentId: pick(["a1", "a2", ""]) })],
        ["POST", `/api/cards/${card}/comments`, () => ({ content: pick(["hi", ""]) })],
        ["POST", `/api/cards/${card}/delegate`, () => ({ boardId: pick([other.id, board.id, "missing"]) })],
        ["DELETE", `/api/cards/${card}${r() < 0.2 && cards.length > 4 ? "?hard=true" : ""}`, () => undefined],
      ] as const);
      const sent = make();
      // A fuzzed call may hit any of the routes above: the fuzzer reads only the error code and a created card's id.
      const res = await h.json<Answer<{ card?: { id: string } }>>(path, { method, body: sent, session: method === "DELETE" });
      const label = `${method} ${path} ${JSON.stringify(sent)} -> ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
      assert.ok(res.status < 500, label);
      if (res.status >= 400) assert.type(res.body?.error?.code, "string", label);
      if (res.status === 201 && path.endsWith("/cards")) cards.push(res.body.card!.id);
      if (res.status === 200 && path.includes("hard=true")) cards.splice(cards.indexOf(card), 1);
    }
    await layout(h, board.id);
    await layout(h, other.id);
  });
});

t.run();

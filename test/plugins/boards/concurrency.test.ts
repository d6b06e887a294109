// Requests that overlap: moves, creates and archives racing on one board never leave a gap or
// a duplicate position, and cards linked to a story while it is deleted never keep the link.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { withTestHost } from "../../helpers/start-test-host.ts";
import { waitUntil } from "../../helpers/wait.ts";
import { createBoard, createCard, layout, patchCard } from "./helpers.ts";
import type { ApiBody } from "@muster/plugin/testing";

const t = suite("boards: concurrent requests");

t("60 overlapping moves, creates and archives keep every column dense and lose no card", async () => {
  await withTestHost(async (h) => {
    const board = await createBoard(h, { columns: [{ id: "a", name: "A" }, { id: "b", name: "B" }, { id: "c", name: "C" }] });
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push((await createCard(h, board.id, { title: `c${i}`, column: ["a", "b", "c"][i % 3] })).id);
    const columns = ["a", "b", "c"];
    const requests = Array.from({ length: 60 }, (_, i) => {
      if (i % 10 === 0) return h.json<ApiBody<"postBoardsCardsById">>(`/api/boards/${board.id}/cards`, { method: "POST", body: { title: `n${i}`, column: columns[i % 3], position: i % 4 } });
      if (i % 15 === 7) return h.json<ApiBody<"deleteCardsById">>(`/api/cards/${ids[i % 20]}`, { method: "DELETE", session: true });
      return patchCard(h, ids[(i * 7) % 20]!, { column: columns[(i * 5) % 3], position: (i * 3) % 9 });
    });
    const results = await Promise.all(requests);
    for (const r of results) assert.ok(r.status === 200 || r.status === 201 || (r.status === 409 && r.body.error?.code === "CARD_ARCHIVED"), JSON.stringify(r.body));
    const archived = (await h.json<ApiBody<"getBoardsCardsById">>(`/api/boards/${board.id}/cards?archived=true`)).body.cards.length;
    const now = await layout(h, board.id);
    const onBoard = Object.values(now).flat().length;
    assert.is(onBoard + archived, 20 + results.filter((r) => r.status === 201).length);
  });
});

t("cards linked to a story while it is deleted never keep a link to the deleted story", async () => {
  await withTestHost(async (h) => {
    const board = await createBoard(h);
    for (let round = 0; round < 5; round++) {
      const story = (await h.json<ApiBody<"postStories">>("/api/stories", { method: "POST", body: { title: `S${round}` } })).body;
      const create = () => h.json<ApiBody<"postBoardsCardsById">>(`/api/boards/${board.id}/cards`, { method: "POST", body: { title: "t", storyId: story.id } });
      const creates = Array.from({ length: 10 }, create);
      const deleted = h.json<ApiBody<"deleteStories">>(`/api/stories?id=${story.id}`, { method: "DELETE", session: true });
      creates.push(...Array.from({ length: 10 }, create));
      assert.is((await deleted).status, 200);
      const made = (await Promise.all(creates)).filter((r) => r.status === 201).map((r) => r.body.card.id as string);
      await waitUntil(async () => {
        for (const id of made) if ((await h.json<ApiBody<"getCardsById">>(`/api/cards/${id}`)).body.card.storyId !== null) return false;
        return true;
      }, { label: `round ${round}: every card's link to the deleted story cleared` });
    }
  });
});

t.run();

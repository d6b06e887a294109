import { z, type PluginRouter } from "@muster/plugin";
import type { Boards } from "../tokens.ts";
import { actor } from "./routes.ts";
import * as s from "./schemas.ts";

const ok = z.literal(true);

/** `/api/boards` and a board's cards (DESIGN §14.11). */
export function mountBoardEndpoints(router: PluginRouter, boards: Boards): void {
  // Before `/api/boards/:id`, which would otherwise take "templates" for an id.
  router.get(
    "/api/boards/templates",
    { summary: "Board templates (kanban, sprint, content, support, blank): columns and settings to start a board from", query: s.emptyQuery, response: z.object({ ok, templates: z.array(s.templateSchema) }) },
    () => ({ ok: true, templates: boards.templates() }),
  );
  router.get(
    "/api/boards",
    {
      summary: "Boards, most recently updated first",
      description: "archived=true lists the archived boards instead; squad filters by squad.",
      query: s.listBoardsQuery,
      response: z.object({ ok, boards: z.array(s.boardSchema) }),
    },
    async ({ query }) => ({ ok: true, boards: await boards.listBoards(query) }),
  );
  router.post(
    "/api/boards",
    {
      summary: "Create a board from columns or a template",
      description: "columns (unique ids) or template is required; a template also gives description, type and settings unless sent.",
      body: s.createBoardBody,
      status: 201,
      response: z.object({ ok, board: s.boardSchema }),
    },
    async ({ body, agentId }) => ({ ok: true, board: await boards.createBoard(body, actor(agentId)) }),
  );
  router.get(
    "/api/boards/:id",
    {
      summary: "A board with its cards (not archived), in column order then position",
      params: s.idParams,
      query: s.emptyQuery,
      response: z.object({ ok, board: s.boardSchema, cards: z.array(s.cardSchema) }),
    },
    async ({ params, koa }) => {
      // Cached JSON bytes (services/board-views.ts): sent as they are, not serialised again.
      koa.type = "application/json";
      return await boards.boardView(params.id);
    },
  );
  router.patch(
    "/api/boards/:id",
    {
      summary: "Change a board; archived: false restores an archived board, true archives it",
      description: "Removing a column that still holds cards (archived ones included) is refused with 409 BOARD_COLUMN_NOT_EMPTY.",
      params: s.idParams,
      body: s.updateBoardBody,
      response: z.object({ ok, board: s.boardSchema }),
    },
    async ({ params, body, agentId }) => ({ ok: true, board: await boards.updateBoard(params.id, body, actor(agentId)) }),
  );
  router.delete(
    "/api/boards/:id",
    {
      summary: "Archive a board; ?hard=true deletes it with its cards, comments and history (session token)",
      params: s.idParams,
      query: s.deleteQuery,
      response: z.object({ ok, board: s.boardSchema.optional(), deleted: z.object({ id: z.string(), cards: z.number(), comments: z.number(), history: z.number() }).optional() }),
    },
    async ({ params, query, agentId }) => {
      if (!query.hard) return { ok: true, board: await boards.updateBoard(params.id, { archived: true }, actor(agentId)) };
      return { ok: true, deleted: { id: params.id, ...(await boards.hardDeleteBoard(params.id)) } };
    },
  );
  router.get(
    "/api/boards/:id/cards",
    {
      summary: "A board's cards in column order then position; archived=true lists its archived cards",
      params: s.idParams,
      query: s.listCardsQuery,
      response: z.object({ ok, cards: z.array(s.cardSchema) }),
    },
    async ({ params, query }) => ({ ok: true, cards: await boards.listCards(params.id, query) }),
  );
  router.post(
    "/api/boards/:id/cards",
    {
      summary: "Add a card (first column and end of the column unless given)",
      description: "A position past the column's end is the end. 409 WIP_LIMIT_REACHED when the column is full.",
      params: s.idParams,
      body: s.createCardBody,
      status: 201,
      response: z.object({ ok, card: s.cardSchema }),
    },
    async ({ params, body, agentId }) => {
      const { by, ...input } = body;
      return { ok: true, card: await boards.createCard(params.id, input, actor(agentId, by)) };
    },
  );
}

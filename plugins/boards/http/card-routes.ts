import { z, type PluginRouter } from "@muster/plugin";
import type { Boards } from "../tokens.ts";
import { actor } from "./routes.ts";
import * as s from "./schemas.ts";

const ok = z.literal(true);

/** `/api/cards/{id}`: one card, its moves, comments, claim and delegation. */
export function mountCardEndpoints(router: PluginRouter, boards: Boards): void {
  router.get(
    "/api/cards/:id",
    { summary: "A card with its change history (oldest first)", params: s.idParams, query: s.emptyQuery, response: z.object({ ok, card: s.cardSchema, history: z.array(s.historySchema) }) },
    async ({ params }) => ({ ok: true, ...(await boards.getCard(params.id)) }),
  );
  router.patch(
    "/api/cards/:id",
    {
      summary: "Change, move, archive or restore a card",
      description:
        "column/position move it (positions stay dense; a position past the end is the end). A move into a requireApprovalFor column answers 202 " +
        "{ ok, approval } and happens when a human approves; into a commentRequiredFor column it needs comment. archived: true archives, false restores.",
      params: s.idParams,
      body: s.updateCardBody,
      response: z.object({ ok, card: s.cardSchema.optional(), approval: z.object({ id: z.string(), status: z.string() }).passthrough().optional() }),
    },
    async ({ params, body, agentId, koa }) => {
      const { by, ...patch } = body;
      const result = await boards.changeCard(params.id, patch, actor(agentId, by));
      if ("approval" in result) koa.status = 202;
      return { ok: true, ...result };
    },
  );
  router.delete(
    "/api/cards/:id",
    {
      summary: "Archive a card; ?hard=true deletes it with its comments and history (session token)",
      params: s.idParams,
      query: s.deleteQuery,
      response: z.object({ ok, card: s.cardSchema.optional(), deleted: z.object({ id: z.string() }).optional() }),
    },
    async ({ params, query, agentId }) => {
      if (query.hard) {
        await boards.hardDeleteCard(params.id);
        return { ok: true, deleted: { id: params.id } };
      }
      const result = await boards.changeCard(params.id, { archived: true }, actor(agentId));
      return { ok: true, ...result };
    },
  );
  router.get(
    "/api/cards/:id/comments",
    { summary: "A card's comments, oldest first", params: s.idParams, query: s.emptyQuery, response: z.object({ ok, comments: z.array(s.commentSchema) }) },
    async ({ params }) => ({ ok: true, comments: await boards.comments(params.id) }),
  );
  router.post(
    "/api/cards/:id/comments",
    { summary: "Comment on a card", params: s.idParams, body: s.commentBody, status: 201, response: z.object({ ok, comment: s.commentSchema }) },
    async ({ params, body, agentId }) => ({ ok: true, comment: await boards.addComment(params.id, body.content, actor(agentId, body.author)) }),
  );
  router.post(
    "/api/cards/:id/claim",
    { summary: "Assign a free card to an agent, atomically (409 CARD_ALREADY_CLAIMED when it has an assignee)", params: s.idParams, body: s.claimBody, response: z.object({ ok, card: s.cardSchema }) },
    async ({ params, body }) => ({ ok: true, card: await boards.claim(params.id, body.agentId) }),
  );
  router.post(
    "/api/cards/:id/delegate",
    {
      summary: "Hand a card to another squad's board and its lead; the card follows the delegated card's completion",
      params: s.idParams,
      body: s.delegateBody,
      status: 201,
      response: z.object({ ok, card: s.cardSchema, delegatedCard: s.cardSchema }),
    },
    async ({ params, body, agentId }) => {
      const { by, ...input } = body;
      return { ok: true, ...(await boards.delegate(params.id, input, actor(agentId, by))) };
    },
  );
}

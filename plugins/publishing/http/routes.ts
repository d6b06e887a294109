import { defineRoutes, validationFailed, z } from "@muster/plugin";
import { APPROVALS, approvalSchema } from "../../approvals/tokens.ts";
import { CONTENT_DRAFTS, OUTBOX, PLATFORMS, PROFESSIONAL_NETWORK, type PublishRequested } from "../tokens.ts";
import {
  createDraftBody,
  draftListQuery,
  draftListResponse,
  draftParams,
  draftResponse,
  networkPostBody,
  networkStatusResponse,
  outboxQuery,
  outboxResponse,
  platformsResponse,
  publishBody,
  updateDraftBody,
} from "./schemas.ts";

/** Who asks for a publish: the agent when one calls, else the API client (never the owner, who decides). */
const requester = (agentId: string | null) => agentId ?? "api";
const YEAR_MS = 366 * 24 * 3_600_000;
const approvalResponse = z.object({ ok: z.literal(true), approval: approvalSchema });

export const publishingRoutes = defineRoutes({
  deps: { approvals: APPROVALS, network: PROFESSIONAL_NETWORK, drafts: CONTENT_DRAFTS, platforms: PLATFORMS, outbox: OUTBOX },
  mount(router, { approvals, network, drafts, platforms, outbox }) {
    const approvalOf = async (requested: PublishRequested) => ({ ok: true, approval: await approvals.get(requested.approvalId) });

    router.get(
      "/api/professional-network",
      { summary: "The professional network connection: connected, and the member's profile from its userinfo (reason when not connected)", response: networkStatusResponse },
      async () => ({ ok: true, ...(await network.status()) }),
    );
    router.post(
      "/api/professional-network",
      {
        summary: "Ask to post to the professional network: a pending publishing.publish approval (409 PUBLISH_NOT_CONFIGURED without LINKEDIN_ACCESS_TOKEN)",
        body: networkPostBody,
        status: 202,
        response: approvalResponse,
      },
      async ({ body, agentId }) => approvalOf(await network.requestPost({ ...body, requestedBy: requester(agentId) })),
    );

    router.get("/api/content/drafts", { summary: "Content drafts, most recently updated first (limit default 50, max 200)", query: draftListQuery, response: draftListResponse }, async ({ query }) => ({
      ok: true,
      drafts: await drafts.list(query),
    }));
    router.get("/api/content/drafts/:id", { summary: "One content draft", params: draftParams, response: draftResponse }, async ({ params }) => ({
      ok: true,
      draft: await drafts.get(params.id),
    }));
    router.post("/api/content/drafts", { summary: "Create a content draft (status draft)", body: createDraftBody, status: 201, response: draftResponse }, async ({ body }) => ({
      ok: true,
      draft: await drafts.create(body),
    }));
    router.patch(
      "/api/content/drafts/:id",
      {
        summary: "Edit a draft or move it: draft→review, review→draft|rejected, rejected→draft, failed→draft (409 otherwise; approved and later come from the publish approval)",
        params: draftParams,
        body: updateDraftBody,
        response: draftResponse,
      },
      async ({ params, body }) => ({ ok: true, draft: await drafts.update(params.id, body) }),
    );
    router.delete("/api/content/drafts/:id", { summary: "Delete a draft that is not being published (session token)", params: draftParams, response: z.object({ ok: z.literal(true) }) }, async ({ params }) => {
      await drafts.delete(params.id);
      return { ok: true };
    });

    router.post(
      "/api/content/publish",
      {
        summary: "Ask to publish a draft to its (or the given) platforms, now or at scheduledAt: a pending publishing.publish approval holding the exact text, media and platforms",
        description: "Refused before any approval exists: unknown platform (400), platform not configured (409 PUBLISH_NOT_CONFIGURED), content over a platform's limits (400 CONTENT_OVER_LIMIT).",
        body: publishBody,
        status: 202,
        response: approvalResponse,
      },
      async ({ body, agentId }) => {
        if (body.scheduledAt !== undefined) {
          const at = Date.parse(body.scheduledAt) - Date.now();
          if (at <= 0 || at > YEAR_MS) throw validationFailed("publish request", [{ path: "scheduledAt", reason: "must lie in the future, at most a year ahead", in: "body" }]);
        }
        return approvalOf(await drafts.requestPublish({ ...body, requestedBy: requester(agentId) }));
      },
    );
    router.get("/api/content/platforms", { summary: "Publishing platforms: limits and whether each is configured (its vault secret is stored)", response: platformsResponse }, () => ({
      ok: true,
      platforms: platforms.list(),
    }));
    router.get(
      "/api/content/outbox",
      { summary: "Outbox entries (one per platform per approved publish), newest first (limit default 50, max 500)", query: outboxQuery, response: outboxResponse },
      async ({ query }) => ({ ok: true, entries: await outbox.list(query) }),
    );
  },
});

import { defineRoutes, type PluginRouter } from "@muster/plugin";
import { APPROVALS, type ApprovalQueue } from "../tokens.ts";
import { approvalParams, approvalResponse, createApprovalBody, decideApprovalBody, listApprovalsQuery, listApprovalsResponse } from "./schemas.ts";

export const approvalRoutes = defineRoutes({
  deps: { approvals: APPROVALS },
  mount: (router, { approvals }) => mountApprovalRoutes(router, approvals),
});

function mountApprovalRoutes(router: PluginRouter, approvals: ApprovalQueue): void {
  router.get(
    "/api/approvals",
    {
      summary: "Pending approvals (paged) and decided history, newest first, without payloads",
      description:
        "pending: pendingLimit (default 100, max 500) from pendingOffset (default 0); pendingTotal counts all pending. history: limit (default 50, max 500). " +
        "List items leave out payload and executionResult; GET /api/approvals/{id} carries them.",
      query: listApprovalsQuery,
      response: listApprovalsResponse,
    },
    async ({ query }) => ({ ok: true, ...(await approvals.list({ historyLimit: query.limit, pendingLimit: query.pendingLimit, pendingOffset: query.pendingOffset })) }),
  );

  router.get(
    "/api/approvals/:id",
    { summary: "One approval", params: approvalParams, response: approvalResponse },
    async ({ params }) => ({ ok: true, approval: await approvals.get(params.id) }),
  );

  router.post(
    "/api/approvals",
    {
      summary: "Request a human approval (always created pending); taskId defaults to title, command = type, approver defaults to the owner",
      body: createApprovalBody,
      status: 201,
      response: approvalResponse,
    },
    async ({ body }) => ({ ok: true, approval: await approvals.create(body) }),
  );

  router.patch(
    "/api/approvals/:id",
    {
      summary: "Approve or reject a pending approval (session token; decidedBy must be the owner or a configured approver, not the requester; never agents); approving a gated action runs it once",
      auth: "session",
      params: approvalParams,
      body: decideApprovalBody,
      response: approvalResponse,
    },
    async ({ params, body, agentId }) => ({ ok: true, approval: await approvals.decide(params.id, { ...body, agentId }) }),
  );
}

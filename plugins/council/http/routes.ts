import { defineRoutes } from "@muster/plugin";
import { COUNCIL } from "../tokens.ts";
import { emptyQuery, listQuery, listResponse, sessionParams, sessionResponse, startCouncilBody } from "./schemas.ts";

export const councilRoutes = defineRoutes({
  deps: { council: COUNCIL },
  mount(router, { council }) {
    router.post(
      "/api/council/session",
      {
        summary: "Start a council: 2-7 agents deliberate on a topic for 1-5 rounds (default 2) in the background; 202 with the session (status running)",
        description:
          "Positions, the first agent's proposal, JSON votes, outcome (adopted when supports outnumber opposes), a memo under company/knowledge_base/council/ and, when adopted, a pending approval (command council.decision). " +
          "Progress as council.session.* events on /api/sse. 404 AGENT_NOT_FOUND, 409 AGENT_NOT_REGISTERED (a member the gateway does not know) / BUDGET_EXCEEDED (a member over its daily budget; nothing stored), 429 RATE_LIMITED (1 running, 3 per minute), 503 GATEWAY_UNAVAILABLE. See docs/chat.md.",
        body: startCouncilBody,
        status: 202,
        response: sessionResponse,
      },
      async ({ body }) => ({ ok: true, session: await council.start(body) }),
    );

    router.get(
      "/api/council/session",
      { summary: "Council sessions, newest first (limit: default 50, max 500)", query: listQuery, response: listResponse },
      async ({ query }) => ({ ok: true, sessions: await council.list(query.limit) }),
    );

    router.get(
      "/api/council/session/:id",
      { summary: "One council session", params: sessionParams, query: emptyQuery, response: sessionResponse },
      async ({ params }) => ({ ok: true, session: await council.get(params.id) }),
    );
  },
});

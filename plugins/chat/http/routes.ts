import { configToken, defineRoutes, hostTokens, type z } from "@muster/plugin";
import type { ChatConfig } from "../config.ts";
import { CHAT_TURNS } from "../services/service-tokens.ts";
import { CHAT, type ChatRequest } from "../tokens.ts";
import { openChatStream } from "./chat-stream.ts";
import {
  abortTurnResponse,
  chatBody,
  chatResponse,
  emptyBody,
  emptyQuery,
  listSessionsQuery,
  listSessionsResponse,
  listTurnsQuery,
  listTurnsResponse,
  okResponse,
  sessionParams,
  sessionQuery,
  sessionResponse,
  turnParams,
  turnResponse,
} from "./schemas.ts";

const toRequest = (body: z.output<typeof chatBody>): ChatRequest =>
  body.mode === "party"
    ? { message: body.message, mode: "party", agentIds: body.agentIds, rounds: body.rounds, sessionId: body.sessionId }
    : { message: body.message, mode: "single", agentIds: [body.agentId], rounds: 1, sessionId: body.sessionId };

export const chatRoutes = defineRoutes({
  deps: { chat: CHAT, turns: CHAT_TURNS, config: configToken<ChatConfig>(), logger: hostTokens.logger, rateLimits: hostTokens.rateLimits },
  mount(router, { chat, turns, config, logger, rateLimits }) {
    // One limiter per deployment (across instances in team mode): 5 running / 20 started per
    // minute by default; a party counts once. A turn holds its slot until it ends, waited for
    // or in the background.
    const limiter = rateLimits.create({ feature: "chat", ...config.rateLimit });

    /**
     * Takes a slot, checks the chat and stores the human's message. The caller starts the turn
     * (which releases the slot when it ends) and, to see its first frame, waits for it in the
     * same tick.
     */
    const prepare = async (body: z.output<typeof chatBody>) => {
      const release = await limiter.acquire();
      try {
        return { prepared: await chat.prepare(toRequest(body)), release };
      } catch (error) {
        // Freed before the refusal is answered: in team mode the slot is a row, and the
        // client's next request, on any instance, must find it free.
        await release();
        throw error;
      }
    };

    router.post(
      "/api/chat",
      {
        summary: "Chat with one agent, or a party of 2-8 agents speaking in turn; JSON, or SSE with Accept: text/event-stream",
        description:
          "JSON waits for the end (each agent turn at most 120 s, then 504 GATEWAY_TIMEOUT whose details name the session and turn: the turn goes on in the background, its reply stored in the session and published as chat.turn.finished). " +
          "SSE frames: start, agent_start, delta, agent_done, then done (the JSON body) or error; a client that disconnects leaves the turn running in the background (POST /api/chat/turns/{id}/abort cancels it). " +
          "404 AGENT_NOT_FOUND / CHAT_SESSION_NOT_FOUND, 409 CHAT_SESSION_MODE_MISMATCH / BUDGET_EXCEEDED (an agent over its daily budget; nothing stored), 429 RATE_LIMITED with Retry-After (5 concurrent, 20 per minute), 503 GATEWAY_UNAVAILABLE, 502 CHAT_RUN_FAILED. See docs/chat.md.",
        body: chatBody,
        response: chatResponse,
        raw: true,
      },
      async ({ body, signal, koa }) => {
        const wantsStream = /\btext\/event-stream\b/.test(koa.get("accept"));
        const { prepared, release } = await prepare(body);
        const turn = turns.start(prepared, { attached: true, release });
        const wait = { signal, waitMs: config.turnTimeoutMs };
        if (!wantsStream) {
          try {
            koa.body = await turn.wait(wait);
            koa.status = 200;
          } catch (error) {
            // A client that left gets no answer; its turn goes on in the background.
            if (signal.aborted) return;
            throw error;
          }
          return;
        }
        const stream = openChatStream(koa, logger);
        stream.send({ type: "start", sessionId: turn.record.sessionId, mode: turn.record.mode, agentIds: turn.record.agentIds, turnId: turn.record.id });
        const answer = turn.wait({ ...wait, frames: (frame) => stream.send(frame) });
        try {
          const result = await answer;
          stream.send({ type: "done", ...result });
        } catch (error) {
          if (!signal.aborted) stream.fail(error);
        } finally {
          stream.end();
        }
      },
    );

    router.post(
      "/api/chat/turns",
      {
        summary: "Start a chat in the background: the body of POST /api/chat; answers 202 with the running turn at once",
        description:
          "Checked as POST /api/chat (the same refusals and rate limit) before anything is stored. The replies are stored in the turn's session and published as chat.turn.finished; GET /api/chat/turns lists the running turns, POST /api/chat/turns/{id}/abort cancels one. See docs/chat.md.",
        body: chatBody,
        response: turnResponse,
        status: 202,
      },
      async ({ body }) => {
        const { prepared, release } = await prepare(body);
        return { ok: true as const, turn: turns.start(prepared, { attached: false, release }).snapshot() };
      },
    );

    router.get(
      "/api/chat/turns",
      {
        summary: "Chat turns still running, oldest first: waited for or in the background, with the gateway approval an agent waits on (sessionId: only that session's); in team mode those of every live instance",
        query: listTurnsQuery,
        response: listTurnsResponse,
      },
      async ({ query }) => ({ ok: true as const, turns: await turns.list(query.sessionId) }),
    );

    router.post(
      "/api/chat/turns/:id/abort",
      {
        summary: "Cancel a running chat turn: its agent's run is aborted on the gateway; answers how it ended and the replies it stored",
        description:
          "404 CHAT_TURN_NOT_FOUND when no turn with this id is running (a finished turn's replies are in its session). A request still waiting for the turn gets 409 CHAT_TURN_CANCELLED. " +
          "Team mode: a turn another instance runs is aborted there and this answers once that instance confirms; 410 CHAT_TURN_OWNER_GONE when it stopped, 504 CHAT_TURN_ABORT_TIMEOUT when it did not confirm within abortConfirmMs.",
        params: turnParams,
        body: emptyBody,
        response: abortTurnResponse,
      },
      async ({ params }) => ({ ok: true as const, ...(await turns.abort(params.id)) }),
    );

    router.get(
      "/api/chat/sessions",
      { summary: "Chat sessions, most recently active first (limit: default 50, max 500)", query: listSessionsQuery, response: listSessionsResponse },
      async ({ query }) => ({ ok: true, sessions: await chat.listSessions(query.limit) }),
    );

    router.get(
      "/api/chat/sessions/:id",
      { summary: "One chat session with its messages, oldest first (the newest `limit`: default 1,000, max 10,000)", params: sessionParams, query: sessionQuery, response: sessionResponse },
      async ({ params, query }) => ({ ok: true, ...(await chat.getSession(params.id, query.limit)) }),
    );

    router.delete(
      "/api/chat/sessions/:id",
      { summary: "Delete a chat session and its messages (session token)", params: sessionParams, query: emptyQuery, response: okResponse },
      async ({ params }) => {
        await chat.deleteSession(params.id);
        return { ok: true };
      },
    );
  },
});

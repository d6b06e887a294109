import { configToken, createRateLimiter, defineRoutes, hostTokens, type z } from "@muster/plugin";
import type { ChatConfig } from "../config.ts";
import { CHAT, type ChatRequest } from "../tokens.ts";
import { openChatStream } from "./chat-stream.ts";
import {
  chatBody,
  chatResponse,
  emptyQuery,
  listSessionsQuery,
  listSessionsResponse,
  okResponse,
  sessionParams,
  sessionQuery,
  sessionResponse,
} from "./schemas.ts";

const toRequest = (body: z.output<typeof chatBody>): ChatRequest =>
  body.mode === "party"
    ? { message: body.message, mode: "party", agentIds: body.agentIds, rounds: body.rounds, sessionId: body.sessionId }
    : { message: body.message, mode: "single", agentIds: [body.agentId], rounds: 1, sessionId: body.sessionId };

export const chatRoutes = defineRoutes({
  deps: { chat: CHAT, config: configToken<ChatConfig>(), logger: hostTokens.logger },
  mount(router, { chat, config, logger }) {
    // One limiter per host: 5 running / 20 started per minute by default; a party counts once.
    const limiter = createRateLimiter({ feature: "chat", ...config.rateLimit });

    router.post(
      "/api/chat",
      {
        summary: "Chat with one agent, or a party of 2-8 agents speaking in turn; JSON, or SSE with Accept: text/event-stream",
        description:
          "JSON waits for the end (each agent turn at most 120 s, then 504 GATEWAY_TIMEOUT). SSE frames: start, agent_start, delta, agent_done, then done (the JSON body) or error; a client that disconnects aborts the run. " +
          "404 AGENT_NOT_FOUND / CHAT_SESSION_NOT_FOUND, 409 CHAT_SESSION_MODE_MISMATCH / BUDGET_EXCEEDED (an agent over its daily budget; nothing stored), 429 RATE_LIMITED with Retry-After (5 concurrent, 20 per minute), 503 GATEWAY_UNAVAILABLE, 502 CHAT_RUN_FAILED. See docs/chat.md.",
        body: chatBody,
        response: chatResponse,
        raw: true,
      },
      async ({ body, signal, koa }) => {
        const wantsStream = /\btext\/event-stream\b/.test(koa.get("accept"));
        try {
          // The slot is held until the answer is complete and freed as soon as the client leaves.
          await limiter.run(
            async () => {
              const prepared = await chat.prepare(toRequest(body));
              if (!wantsStream) {
                koa.body = await prepared.run({ signal });
                koa.status = 200;
                return;
              }
              const stream = openChatStream(koa, logger);
              stream.send({ type: "start", sessionId: prepared.sessionId, mode: prepared.mode, agentIds: prepared.agentIds });
              try {
                const result = await prepared.run({ signal, frames: (frame) => stream.send(frame) });
                stream.send({ type: "done", ...result });
              } catch (error) {
                if (!signal.aborted) stream.fail(error);
              } finally {
                stream.end();
              }
            },
            { signal },
          );
        } catch (error) {
          // A client that left gets no answer; its run was aborted and its slot freed.
          if (signal.aborted) return;
          throw error;
        }
      },
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
      ({ params }) => {
        chat.deleteSession(params.id);
        return { ok: true };
      },
    );
  },
});

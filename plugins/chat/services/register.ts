import { configToken, defineService, hostTokens, type PluginContext } from "@muster/plugin";
import { ACTIVITIES } from "../../activities/tokens.ts";
import { CREW } from "../../agents/tokens.ts";
import { USAGE } from "../../usage/tokens.ts";
import type { ChatConfig } from "../config.ts";
import { AGENT_TURNS, CHAT } from "../tokens.ts";
import { ChatService } from "./chat-service.ts";
import { ChatStore } from "./chat-store.ts";
import { ChatTurns } from "./chat-turns.ts";
import { TeamTurns } from "./team-turns.ts";
import { CHAT_TURNS, TURN_RUNNER } from "./service-tokens.ts";
import { TurnRunner } from "./turn-runner.ts";

/** Provides the turn runner, the chat service and the registry of running chat turns. */
export function registerChatServices(ctx: PluginContext<ChatConfig>): void {
  ctx.provide(
    defineService({
      token: TURN_RUNNER,
      deps: { gateway: hostTokens.gateway, logger: hostTokens.logger },
      create: (deps) => new TurnRunner(deps),
    }),
  );
  ctx.provide(defineService({ token: AGENT_TURNS, deps: { runner: TURN_RUNNER }, create: ({ runner }) => runner }));
  ctx.provide(
    defineService({
      token: CHAT,
      deps: { db: hostTokens.db, turns: AGENT_TURNS, gateway: hostTokens.gateway, config: configToken<ChatConfig>(), logger: hostTokens.logger, redaction: hostTokens.redaction },
      // Who the agents are comes from the crew capability (the agents plugin); replies are logged
      // as activities, and budgets and cost events come from usage; each when loaded.
      optionalDeps: { crew: CREW, activities: ACTIVITIES, usage: USAGE },
      create: ({ db, activities, usage, crew, ...deps }) => new ChatService({ ...deps, store: new ChatStore(() => db), activities, usage, crew }),
    }),
  );
  ctx.provide(
    defineService({
      token: CHAT_TURNS,
      deps: { gateway: hostTokens.gateway, events: hostTokens.events, config: configToken<ChatConfig>(), logger: hostTokens.logger, db: hostTokens.db, instances: hostTokens.instances },
      // Shared through the database only where several instances may serve it (docs/team.md).
      create: ({ db, instances, ...deps }) =>
        new ChatTurns({ ...deps, ...(db.listen && instances.shared ? { team: new TeamTurns({ db, instances, logger: deps.logger, confirmMs: deps.config.abortConfirmMs }) } : {}) }),
    }),
  );
}

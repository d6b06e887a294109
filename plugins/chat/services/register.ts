import { configToken, defineService, hostTokens, token, type PluginContext } from "@muster/plugin";
import { ACTIVITIES } from "../../activities/tokens.ts";
import { AGENTS } from "../../agents/tokens.ts";
import { MEMORY_READER } from "../../memory/tokens.ts";
import { USAGE } from "../../usage/tokens.ts";
import type { ChatConfig } from "../config.ts";
import { AGENT_DIRECTORY, AGENT_TURNS, CHAT } from "../tokens.ts";
import { AgentDirectoryService } from "./agent-directory.ts";
import { ChatService } from "./chat-service.ts";
import { ChatStore } from "./chat-store.ts";
import { CrewAgentDirectory } from "./crew-directory.ts";
import { TurnRunner } from "./turn-runner.ts";

/** The concrete services, for this plugin's lifecycle (start/stop); other plugins get the interfaces. */
export const TURN_RUNNER = token<TurnRunner>("chat.turnRunner");
export const DIRECTORY = token<AgentDirectoryService>("chat.directory");

/** Provides the turn runner, the agent directory and the chat service. */
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
      token: DIRECTORY,
      deps: { gateway: hostTokens.gateway, logger: hostTokens.logger, config: configToken<ChatConfig>() },
      // Without the memory plugin there is no organisation file to read; the gateway's list is enough.
      optionalDeps: { memory: MEMORY_READER },
      create: ({ gateway, logger, config, memory }) => new AgentDirectoryService({ gateway, logger, memory, refreshMs: config.agentsRefreshMs }),
    }),
  );
  ctx.provide(
    defineService({
      token: AGENT_DIRECTORY,
      deps: { directory: DIRECTORY },
      // The agents plugin's directory when loaded (one view of the crew); chat's own otherwise.
      optionalDeps: { crew: AGENTS },
      create: ({ directory, crew }) => (crew ? new CrewAgentDirectory(crew, directory) : directory),
    }),
  );
  ctx.provide(
    defineService({
      token: CHAT,
      deps: { db: hostTokens.db, turns: AGENT_TURNS, agents: AGENT_DIRECTORY, gateway: hostTokens.gateway, config: configToken<ChatConfig>(), logger: hostTokens.logger, redaction: hostTokens.redaction },
      // Replies are logged as activities, and cost events carry the crew directory's model, when those plugins are loaded.
      optionalDeps: { activities: ACTIVITIES, usage: USAGE, crew: AGENTS },
      create: ({ db, activities, usage, crew, ...deps }) => new ChatService({ ...deps, store: new ChatStore(() => db), activities, usage, crew }),
    }),
  );
}

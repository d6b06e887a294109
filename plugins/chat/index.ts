import { fileURLToPath } from "node:url";
import { contribute, definePlugin } from "@muster/plugin";
import { CONSOLE_PAGES } from "../dashboard/tokens.ts";
import { STREAM_EVENT_FAMILIES } from "../stream/tokens.ts";
import { chatConfig, type ChatConfig } from "./config.ts";
import { ChatMessage } from "./entities/chat-message.ts";
import { ChatSession } from "./entities/chat-session.ts";
import { ChatTurn } from "./entities/chat-turn.ts";
import { migrations } from "./migrations.ts";
import { chatRoutes } from "./http/routes.ts";
import { registerChatServices } from "./services/register.ts";
import { startChat } from "./services/lifecycle.ts";

/**
 * Chat with agents through the OpenClaw gateway (DESIGN §14.2): single and party, JSON or
 * streamed, stored sessions. Also provides the agent turn runner the council and dispatch
 * build on.
 */
export const chatPlugin = definePlugin<ChatConfig>({
  id: "chat",
  version: "1.0.0",
  host: "^1.0.0",
  // Known agents come from the agents plugin's crew capability (without it the gateway alone
  // decides); replies are logged as activities; budgets and cost events come from usage.
  // The stream lists the chat.turn.* events; the console shows the Conversations page.
  optionalDependsOn: ["activities", "agents", "usage", "stream", "dashboard"],
  paths: ["/api/chat"],
  config: chatConfig,
  entities: [ChatSession, ChatMessage, ChatTurn],
  migrations,
  register: registerChatServices,
  routes: chatRoutes,
  contributions: [
    contribute(STREAM_EVENT_FAMILIES, {
      pattern: "chat.turn.*",
      description: "A chat turn started, went on in the background or started or stopped waiting for a gateway approval, or finished (its stored replies, or its error)",
    }),
    contribute(CONSOLE_PAGES, { id: "chat", title: "Conversations", group: "crew", order: 20, module: fileURLToPath(new URL("./console/chat-page.ts", import.meta.url)), events: ["chat.turn.*", "approvals.approval.*"] }),
  ],
  onStart: startChat,
});

export default chatPlugin;

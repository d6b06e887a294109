import { definePlugin } from "@muster/plugin";
import { chatConfig, type ChatConfig } from "./config.ts";
import { ChatMessage } from "./entities/chat-message.ts";
import { ChatSession } from "./entities/chat-session.ts";
import { migrations } from "./migrations.ts";
import { mountChatRoutes } from "./http/routes.ts";
import { registerChatServices } from "./services/register.ts";
import { startChat } from "./services/lifecycle.ts";

/**
 * Chat with agents through the OpenClaw gateway (DESIGN §14.2): single and party, JSON or
 * streamed, stored sessions. Also provides the agent turn runner and the known-agent
 * directory the council builds on.
 */
export const chatPlugin = definePlugin<ChatConfig>({
  id: "chat",
  version: "1.0.0",
  host: "^1.0.0",
  // Replies are logged as activities; known agents come from the agents plugin's directory
  // when it is loaded, else from agents.list and the organisation file (memory).
  optionalDependsOn: ["activities", "memory", "agents", "usage"],
  paths: ["/api/chat"],
  config: chatConfig,
  entities: [ChatSession, ChatMessage],
  migrations,
  register: registerChatServices,
  routes: mountChatRoutes,
  onStart: startChat,
});

export default chatPlugin;

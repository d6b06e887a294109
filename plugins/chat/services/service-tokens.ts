// The chat plugin's own services, for its hooks and routes; other plugins get the interfaces of tokens.ts.
import { token } from "@muster/plugin";
import type { ChatTurns } from "./chat-turns.ts";
import type { TurnRunner } from "./turn-runner.ts";

export const TURN_RUNNER = token<TurnRunner>("chat.turnRunner");
export const CHAT_TURNS = token<ChatTurns>("chat.turns.active");

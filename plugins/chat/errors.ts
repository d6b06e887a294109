import { defineErrors } from "@muster/plugin";

/** The chat plugin's error catalogue. Unknown and unregistered agents are the crew capability's `AGENT_NOT_FOUND` and `AGENT_NOT_REGISTERED` (agents plugin); gateway failures the host's `GATEWAY_*`. */
export const chatErrors = defineErrors("chat", {
  CHAT_SESSION_NOT_FOUND: { status: 404, message: "No chat session with id {id}" },
  CHAT_SESSION_MODE_MISMATCH: {
    status: 409,
    message: "Chat session {id} is a {mode} session; continue it with mode \"{mode}\" or start a new session",
  },
  CHAT_RUN_FAILED: { status: 502, message: "Agent {agentId} failed before finishing its reply: {reason}" },
  CHAT_RUN_ABORTED: { status: 502, message: "The run of agent {agentId} was aborted on the gateway before it finished" },
  CHAT_TURN_NOT_FOUND: {
    status: 404,
    message: "No running chat turn with id {id}; a finished turn's replies are in its chat session (GET /api/chat/sessions/<sessionId>)",
  },
  CHAT_TURN_OWNER_GONE: {
    status: 410,
    message: "Chat turn {id} ran on another instance of this team, which stopped before confirming the abort; the turn ended with it (its stored replies are in chat session {sessionId})",
  },
  CHAT_TURN_ABORT_TIMEOUT: {
    status: 504,
    message: "The instance running chat turn {id} did not confirm the abort within {ms} ms; the request stays recorded and the turn is cancelled when that instance reads it",
  },
  CHAT_TURN_CANCELLED: { status: 409, message: "Chat turn {id} was cancelled (POST /api/chat/turns/{id}/abort) before it finished" },
});

import type { ChatTurnFinished, ChatTurnRecord } from "./services/chat-turns.ts";

/** Events the chat plugin publishes (public: forwarded to SSE clients as the family `chat.turn.*`). */
export interface ChatEvents {
  /** A chat turn (one `POST /api/chat` or `POST /api/chat/turns`) started. */
  "chat.turn.started": { turn: ChatTurnRecord };
  /** A running turn changed: it went on in the background, or started or stopped waiting for a human approval. */
  "chat.turn.updated": { turn: ChatTurnRecord };
  /** A turn ended: its stored replies (as `GET /api/chat/sessions/:id` returns them), or the error. */
  "chat.turn.finished": ChatTurnFinished;
}

declare module "@muster/plugin" {
  interface MusterEvents extends ChatEvents {}
}

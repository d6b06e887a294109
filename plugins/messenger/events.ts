import type { UpdateKind } from "./services/update-kind.ts";

/** Events the messenger plugin publishes (all public; no secrets, no message text). */
export interface MessengerEvents {
  /** A new approval was pushed to the chat with its buttons. */
  "messenger.notice.sent": { approvalId: string; messageId: number | null };
  /** Pushing a new approval to the chat failed after every attempt (or could not be tried). */
  "messenger.notice.failed": { approvalId: string; attempts: number; reason: string };
  /** A webhook update was taken (not a duplicate): what it carried and what became of it; never its text. */
  "messenger.update.received": { updateId: number; kind: UpdateKind; outcome: "handled" | "ignored" };
  /** A photo or document from the chat was stored under MUSTER_HOME/media. */
  "messenger.media.saved": { id: string; path: string; mimeType: string; sizeBytes: number };
}

declare module "@muster/plugin" {
  interface MusterEvents extends MessengerEvents {}
}

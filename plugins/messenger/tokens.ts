import { token } from "@muster/plugin";
import type { ApprovalEventPayload } from "../approvals/events.ts";
import type { MessengerStatus } from "./services/messenger-status.ts";
import type { WebhookAnswer, WebhookDelivery } from "./services/webhook-service.ts";

export type { MessengerStatus, WebhookAnswer, WebhookDelivery };

/** Vault secret names (DESIGN §14.10). */
export const TELEGRAM_BOT_TOKEN = "TELEGRAM_BOT_TOKEN";
export const TELEGRAM_WEBHOOK_SECRET = "TELEGRAM_WEBHOOK_SECRET";
export const TELEGRAM_CHAT_ID = "TELEGRAM_CHAT_ID";

/** `POST /api/messenger/webhook`: one Telegram update. */
export interface MessengerWebhook {
  handle(delivery: WebhookDelivery): Promise<WebhookAnswer>;
}

/** Pushes new approvals to the chat with Approve/Reject buttons, off the request path. */
export interface ApprovalNotices {
  /** Starts sending (with bounded retries); returns at once. */
  notify(approval: ApprovalEventPayload): void;
  /** Cancels pending retries and waits for sends in flight. */
  stop(): Promise<void>;
  /** What became of the pushes since the server started. */
  stats(): NoticeStats;
}

/** Counts of approval pushes since the server started (memory only: a restart begins at zero). */
export interface NoticeStats {
  /** When counting began (this process's start of the messenger). */
  since: string;
  sent: number;
  /** Given up after every attempt, or refused by Telegram at once. */
  failed: number;
  /** Not tried: the bot token or chat id missing, or the vault unreadable. */
  skipped: number;
  lastSentAt: string | null;
  /** The latest failure: Telegram's HTTP status (null: no answer) and the error text (secrets cut out). */
  lastFailure: { at: string; approvalId: string; attempts: number; status: number | null; reason: string } | null;
}

export const MESSENGER_WEBHOOK = token<MessengerWebhook>("messenger.webhook");
export const APPROVAL_NOTICES = token<ApprovalNotices>("messenger.notices");
/** `GET /api/messenger`: the messenger's state for a human (no secret values). */
export const MESSENGER_STATUS = token<{ read(): Promise<MessengerStatus> }>("messenger.status");
/** `GET /api/messenger/media/:id`: a stored photo or document, through any instance. */
export const MESSENGER_MEDIA = token<{ read(id: string): Promise<{ mimeType: string; bytes: Buffer; name: string }> }>("messenger.media");

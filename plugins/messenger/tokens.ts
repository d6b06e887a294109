import { token } from "@muster/plugin";
import type { ApprovalEventPayload } from "../approvals/events.ts";
import type { WebhookAnswer, WebhookDelivery } from "./services/webhook-service.ts";

export type { WebhookAnswer, WebhookDelivery };

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
}

export const MESSENGER_WEBHOOK = token<MessengerWebhook>("messenger.webhook");
export const APPROVAL_NOTICES = token<ApprovalNotices>("messenger.notices");

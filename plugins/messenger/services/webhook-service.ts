import { clip, constantTimeEqual, MusterError, summarizeDetails, zodIssueDetails, type EventBus, type Logger } from "@muster/plugin";
import type { ApprovalQueue } from "../../approvals/tokens.ts";
import type { VaultSecretReader } from "../../vault/tokens.ts";
import { messengerErrors } from "../errors.ts";
import { TELEGRAM_BOT_TOKEN, TELEGRAM_CHAT_ID, TELEGRAM_WEBHOOK_SECRET, type MessengerWebhook } from "../tokens.ts";
import type { MediaOutcome, MediaSaver } from "./media-saver.ts";
import { TelegramError, type TelegramClient } from "./telegram-client.ts";
import { telegramUpdate, type TelegramCallback, type TelegramMessage } from "./telegram-update.ts";
import { updateChat, updateKind } from "./update-kind.ts";
import type { UpdateStore } from "./update-store.ts";

export interface WebhookDelivery {
  /** The `X-Telegram-Bot-Api-Secret-Token` header, if any. */
  secretHeader: string | undefined;
  body: unknown;
  /** The request's `X-Agent-Id`: an agent never decides, here as over HTTP. */
  agentId: string | null;
}

/** What the webhook answers Telegram (always 200 once authenticated): what became of the update. */
export interface WebhookAnswer {
  outcome: "handled" | "duplicate" | "ignored";
}

export interface WebhookServiceDeps {
  vault: VaultSecretReader;
  approvals: ApprovalQueue;
  client: TelegramClient;
  store: UpdateStore;
  media: MediaSaver;
  logger: Logger;
  /** `messenger.update.received` and `messenger.media.saved` (no text, no secrets). */
  events: EventBus;
  /** Who a press decides as (null: the owner). */
  decidedBy: string | null;
  allowedUserIds: readonly number[];
}

/** `approve:<id>` / `reject:<id>`: approval ids are UUIDs, so no `:` may follow (Telegram caps callback data at 64 bytes). */
const BUTTON = /^(approve|reject):([A-Za-z0-9-]{1,56})$/;

/** Refusals a press can meet, in words for the toast. */
const REFUSALS: Record<string, string> = {
  APPROVAL_NOT_FOUND: "No such approval",
  APPROVAL_ALREADY_RESOLVED: "Already decided",
  APPROVAL_EXPIRED: "This approval expired",
  APPROVAL_AGENT_FORBIDDEN: "Not allowed: agents cannot decide",
  APPROVAL_SELF_DECISION: "Not allowed: the requester cannot decide",
  APPROVAL_DECIDER_NOT_ALLOWED: "Not allowed: the chat's decider is not a configured approver",
  APPROVAL_EXECUTOR_UNAVAILABLE: "Cannot approve: the action's plugin is not loaded",
};

/**
 * The Telegram webhook (DESIGN §14.10): the secret header (constant-time), update de-duplication
 * that survives restarts, the one configured chat only, Approve/Reject presses decided through
 * the approvals service with the HTTP API's rules, `/status`, and media storage with limits.
 */
export class WebhookService implements MessengerWebhook {
  private readonly deps: WebhookServiceDeps;
  constructor(deps: WebhookServiceDeps) {
    this.deps = deps;
  }

  async handle(delivery: WebhookDelivery): Promise<WebhookAnswer> {
    const { vault } = this.deps;
    // A team: the secrets saved through another instance just before count (the view is reloaded now).
    await vault.current().catch(() => undefined);
    const secret = vault.get(TELEGRAM_WEBHOOK_SECRET);
    if (!secret) throw messengerErrors.MESSENGER_NOT_CONFIGURED({ secrets: TELEGRAM_WEBHOOK_SECRET });
    if (delivery.secretHeader === undefined || !constantTimeEqual(delivery.secretHeader, secret)) throw messengerErrors.MESSENGER_WEBHOOK_UNAUTHORIZED();
    const parsed = telegramUpdate.safeParse(delivery.body);
    if (!parsed.success) {
      const details = zodIssueDetails(parsed.error, undefined, "body");
      throw messengerErrors.MESSENGER_UPDATE_INVALID({ summary: summarizeDetails(details) }, { details });
    }
    const token = vault.get(TELEGRAM_BOT_TOKEN);
    const chatId = vault.get(TELEGRAM_CHAT_ID);
    if (!token || !chatId) throw messengerErrors.MESSENGER_NOT_CONFIGURED({ secrets: `${TELEGRAM_BOT_TOKEN} and ${TELEGRAM_CHAT_ID}` });
    const update = parsed.data;
    const kind = updateKind(update);
    const fromChat = updateChat(update);
    const ignored = fromChat === undefined || String(fromChat) !== chatId.trim();
    if (!(await this.deps.store.markSeen(update.update_id, new Date().toISOString(), { kind, ignored }))) {
      this.deps.logger.info({ updateId: update.update_id }, "telegram update seen before; nothing done");
      return { outcome: "duplicate" };
    }
    let answer: { outcome: "handled" | "ignored" };
    try {
      answer = ignored ? this.ignore(update.update_id, fromChat) : await this.dispatch(update.update_id, update.callback_query, update.message, token, delivery.agentId);
    } catch (error) {
      // Not half-done: let Telegram redeliver it. A decision already made stays made, and a repeat is refused by the approvals plugin.
      await this.deps.store.forget(update.update_id);
      throw error;
    }
    this.deps.events.publish("messenger.update.received", { updateId: update.update_id, kind, outcome: answer.outcome }, { public: true });
    return answer;
  }

  private ignore(updateId: number, fromChat: number | undefined): { outcome: "ignored" } {
    this.deps.logger.warn({ updateId, chatId: fromChat ?? null }, "telegram update from a chat that is not TELEGRAM_CHAT_ID; ignored");
    return { outcome: "ignored" };
  }

  private async dispatch(updateId: number, callback: TelegramCallback | undefined, message: TelegramMessage | undefined, token: string, agentId: string | null): Promise<{ outcome: "handled" }> {
    if (callback) await this.press(callback, token, agentId);
    else if (message) await this.message(updateId, message, token);
    return { outcome: "handled" };
  }

  private async press(callback: TelegramCallback, token: string, agentId: string | null): Promise<void> {
    const match = BUTTON.exec(callback.data ?? "");
    if (!match) return this.toast(token, callback.id, "Unknown action");
    // A group's every member (Telegram group ids are negative) would otherwise decide as the owner: there, only listed users decide.
    if (this.deps.allowedUserIds.length === 0 && (callback.message?.chat.id ?? 0) < 0) {
      this.deps.logger.warn({ telegramUserId: callback.from.id }, "approval button pressed in a group chat while messenger.allowedUserIds is empty; refused");
      return this.toast(token, callback.id, "Not allowed: in a group, only users in messenger.allowedUserIds decide");
    }
    if (this.deps.allowedUserIds.length > 0 && !this.deps.allowedUserIds.includes(callback.from.id)) {
      this.deps.logger.warn({ telegramUserId: callback.from.id }, "approval button pressed by a Telegram user not in allowedUserIds; refused");
      return this.toast(token, callback.id, "Not allowed");
    }
    const [, action, approvalId] = match as unknown as [string, "approve" | "reject", string];
    let verdict: string;
    try {
      const decided = await this.deps.approvals.decide(approvalId, {
        status: action === "approve" ? "approved" : "rejected",
        decidedBy: this.deps.decidedBy ?? undefined,
        reason: `Decided in Telegram (user ${callback.from.id})`,
        agentId,
      });
      const ran = decided.executionStatus === "failed" ? " (the action failed; see the approval)" : "";
      verdict = `${decided.status === "approved" ? "✅ Approved" : "❌ Rejected"} by ${decided.decidedBy}${ran}`;
    } catch (error) {
      if (!(error instanceof MusterError) || !(error.code in REFUSALS)) throw error;
      this.deps.logger.info({ approvalId, code: error.code }, "approval button press refused");
      return this.toast(token, callback.id, REFUSALS[error.code]!);
    }
    await this.toast(token, callback.id, verdict);
    if (callback.message) {
      const text = clip(`${callback.message.text ?? ""}\n\n${verdict}`.trim(), 4000);
      await this.send(token, "editMessageText", { chat_id: callback.message.chat.id, message_id: callback.message.message_id, text });
    }
  }

  private async message(updateId: number, message: TelegramMessage, token: string): Promise<void> {
    const chat_id = message.chat.id;
    if (message.photo || message.document) {
      let outcome: MediaOutcome;
      try {
        outcome = await this.deps.media.save(token, updateId, message);
      } catch (error) {
        if (!(error instanceof TelegramError)) throw error;
        this.deps.logger.warn({ updateId, error: error.message }, "telegram media could not be fetched");
        outcome = { refused: "Telegram did not hand over the file" };
      }
      const text = "saved" in outcome ? `Saved (${outcome.saved.sizeBytes} bytes).` : `Not saved: ${outcome.refused}.`;
      if ("saved" in outcome) {
        this.deps.logger.info({ mediaId: outcome.saved.id, sizeBytes: outcome.saved.sizeBytes }, "telegram media saved");
        this.deps.events.publish("messenger.media.saved", outcome.saved, { public: true });
      }
      await this.send(token, "sendMessage", { chat_id, text, reply_to_message_id: message.message_id });
      return;
    }
    const command = /^\/([a-z]+)(?:@\w+)?(?:\s|$)/.exec(message.text ?? "")?.[1];
    if (command === "status") await this.send(token, "sendMessage", { chat_id, text: await this.status() });
    else if (command) await this.send(token, "sendMessage", { chat_id, text: "Commands: /status" });
  }

  private async status(): Promise<string> {
    const list = await this.deps.approvals.list({ historyLimit: 1, pendingLimit: 5, pendingOffset: 0 });
    const lines = list.pending.map((a) => `• ${clip(a.title, 100)} (${a.requestedBy})`);
    return [`Pending approvals: ${list.pendingTotal}`, ...lines].join("\n");
  }

  private toast(token: string, callbackId: string, text: string): Promise<void> {
    return this.send(token, "answerCallbackQuery", { callback_query_id: callbackId, text: clip(text, 200) });
  }

  /** Replies are best effort: the decision is made whether or not Telegram takes the answer. */
  private async send(token: string, method: string, params: Record<string, unknown>): Promise<void> {
    try {
      await this.deps.client.call(token, method, params);
    } catch (error) {
      this.deps.logger.warn({ method, error: (error as Error).message }, "telegram reply failed");
    }
  }
}

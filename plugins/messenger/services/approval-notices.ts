import { clip, type EventBus, type Logger } from "@muster/plugin";
import type { ApprovalEventPayload } from "../../approvals/events.ts";
import type { VaultSecretReader } from "../../vault/tokens.ts";
import { TELEGRAM_BOT_TOKEN, TELEGRAM_CHAT_ID, type ApprovalNotices, type NoticeStats } from "../tokens.ts";
import { TelegramError, type TelegramClient } from "./telegram-client.ts";

export interface ApprovalNoticesDeps {
  vault: VaultSecretReader;
  client: TelegramClient;
  events: EventBus;
  logger: Logger;
  attempts: number;
  retryDelayMs: number;
}

/** Telegram's limit on a message's text. */
const TEXT_MAX = 4096;

/** The chat message for a new approval: plain text (no parse mode, so nothing in a title is read as markup) and the two buttons. */
export function noticeFor(a: ApprovalEventPayload, chatId: string) {
  const text = [`Approval requested by ${a.requestedBy}`, a.title, a.description ?? a.context ?? "", `id: ${a.id}`].filter(Boolean).join("\n\n");
  return {
    chat_id: chatId,
    text: clip(text, TEXT_MAX),
    reply_markup: { inline_keyboard: [[{ text: "✅ Approve", callback_data: `approve:${a.id}` }, { text: "❌ Reject", callback_data: `reject:${a.id}` }]] },
  };
}

/**
 * Pushes each new approval to the chat. Runs off the creating request (the event bus delivers
 * after the write, and this returns at once); retries no answer, 429 (its retry_after) and
 * 5xx a bounded number of times; other refusals and the last failure are logged and published.
 */
export class ApprovalNoticeSender implements ApprovalNotices {
  private readonly deps: ApprovalNoticesDeps;
  private readonly abort = new AbortController();
  private readonly running = new Set<Promise<void>>();
  /** What became of the pushes since this process started (kept in memory only). */
  private readonly tally: NoticeStats = { since: new Date().toISOString(), sent: 0, failed: 0, skipped: 0, lastSentAt: null, lastFailure: null };
  constructor(deps: ApprovalNoticesDeps) {
    this.deps = deps;
  }

  stats(): NoticeStats {
    return { ...this.tally, lastFailure: this.tally.lastFailure && { ...this.tally.lastFailure } };
  }

  notify(approval: ApprovalEventPayload): void {
    if (this.abort.signal.aborted) return;
    const run = this.send(approval).finally(() => this.running.delete(run));
    this.running.add(run);
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await Promise.allSettled([...this.running]);
  }

  private async send(approval: ApprovalEventPayload): Promise<void> {
    const { vault, client, events, logger, attempts, retryDelayMs } = this.deps;
    let token: string | null;
    let chatId: string | null;
    // A team: the secrets saved through another instance just before count (the view is reloaded now).
    await vault.current().catch(() => undefined);
    try {
      token = vault.get(TELEGRAM_BOT_TOKEN);
      chatId = vault.get(TELEGRAM_CHAT_ID);
    } catch (error) {
      logger.warn({ approvalId: approval.id, code: (error as { code?: string }).code }, "vault unreadable; approval not pushed to the chat");
      this.tally.skipped++;
      return;
    }
    if (!token || !chatId) {
      logger.debug({ approvalId: approval.id }, "messenger not configured; approval not pushed to the chat");
      this.tally.skipped++;
      return;
    }
    let reason = "";
    let status: number | null = null;
    let tried = 0;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      tried = attempt;
      try {
        const sent = await client.call<{ message_id?: number }>(token, "sendMessage", noticeFor(approval, chatId.trim()), this.abort.signal);
        this.tally.sent++;
        this.tally.lastSentAt = new Date().toISOString();
        events.publish("messenger.notice.sent", { approvalId: approval.id, messageId: sent?.message_id ?? null }, { public: true });
        return;
      } catch (error) {
        reason = (error as Error).message;
        status = error instanceof TelegramError ? error.status : null;
        const retry = error instanceof TelegramError && error.retryable && attempt < attempts && !this.abort.signal.aborted;
        logger.warn({ approvalId: approval.id, attempt, error: reason, retry }, "pushing an approval to the chat failed");
        if (!retry) break;
        const delay = (error as TelegramError).retryAfterMs ?? retryDelayMs * attempt;
        if (!(await this.pause(delay))) break;
      }
    }
    this.tally.failed++;
    this.tally.lastFailure = { at: new Date().toISOString(), approvalId: approval.id, attempts: tried, status, reason };
    events.publish("messenger.notice.failed", { approvalId: approval.id, attempts: tried, reason }, { public: true });
  }

  /** Waits `ms` unless stopped first; false when stopped. */
  private pause(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      if (this.abort.signal.aborted) return resolve(false);
      const timer = setTimeout(() => resolve(true), ms);
      this.abort.signal.addEventListener("abort", () => (clearTimeout(timer), resolve(false)), { once: true });
    });
  }
}

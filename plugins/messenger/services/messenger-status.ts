import type { VaultSecretReader, VaultStatus } from "../../vault/tokens.ts";
import type { MessengerConfig } from "../config.ts";
import { TELEGRAM_BOT_TOKEN, TELEGRAM_CHAT_ID, TELEGRAM_WEBHOOK_SECRET, type ApprovalNotices, type NoticeStats } from "../tokens.ts";
import type { UpdateStore } from "./update-store.ts";

/** The vault secrets the messenger reads, in the order docs/messenger.md lists them. */
const SECRETS = [TELEGRAM_BOT_TOKEN, TELEGRAM_WEBHOOK_SECRET, TELEGRAM_CHAT_ID] as const;

/**
 * - `webhook`: every secret is stored: new approvals are pushed and the webhook takes updates.
 * - `notices-only`: the bot token and chat id are stored but not the webhook secret: approvals
 *   are pushed, but every update (a button press) is refused with 409.
 * - `off`: nothing is pushed and the webhook refuses updates. (The plugin has no polling mode.)
 */
export type MessengerMode = "webhook" | "notices-only" | "off";

/** `GET /api/messenger`: what the messenger plugin knows about itself; never a secret's value. */
export interface MessengerStatus {
  configured: boolean;
  mode: MessengerMode;
  /** The vault's state: while it is locked no secret can be read, so the messenger is off. */
  vault: VaultStatus["state"];
  /** Which of the three secrets are stored (names only; null while the vault cannot be read). */
  secrets: { name: string; stored: boolean | null }[];
  webhookPath: string;
  apiBaseUrl: string;
  /** Who a button press decides as; null: the owner. */
  decidedBy: string | null;
  /** Telegram user ids allowed to press (0: anyone in a private chat). */
  allowedUsers: number;
  /** The latest update the webhook took (duplicates and refused deliveries are not recorded). */
  lastUpdate: Awaited<ReturnType<UpdateStore["lastUpdate"]>>;
  notices: NoticeStats;
  media: { saved: number; bytes: number; lastSavedAt: string | null };
}

export interface MessengerStatusDeps {
  vault: VaultSecretReader;
  store: UpdateStore;
  notices: ApprovalNotices;
  config: MessengerConfig;
}

/** Reads the messenger's state: vault secret presence, the update store, the push counters. */
export class MessengerStatusReader {
  private readonly deps: MessengerStatusDeps;
  constructor(deps: MessengerStatusDeps) {
    this.deps = deps;
  }

  async read(): Promise<MessengerStatus> {
    const { vault, store, notices, config } = this.deps;
    // A team: the secrets saved through another instance just before count (the view is reloaded now).
    await vault.current().catch(() => undefined);
    const state = vault.status().state;
    const stored = new Map<string, boolean | null>(SECRETS.map((name) => [name, state === "unlocked" ? this.stored(name) : null]));
    const has = (name: string) => stored.get(name) === true;
    const mode: MessengerMode = has(TELEGRAM_BOT_TOKEN) && has(TELEGRAM_CHAT_ID) ? (has(TELEGRAM_WEBHOOK_SECRET) ? "webhook" : "notices-only") : "off";
    return {
      configured: mode === "webhook",
      mode,
      vault: state,
      secrets: SECRETS.map((name) => ({ name, stored: stored.get(name) ?? null })),
      webhookPath: "/api/messenger/webhook",
      apiBaseUrl: config.telegram.apiBaseUrl,
      decidedBy: config.decidedBy,
      allowedUsers: config.allowedUserIds.length,
      lastUpdate: await store.lastUpdate(),
      notices: notices.stats(),
      media: await store.mediaSummary(),
    };
  }

  /** Whether a secret is stored under `name` (nothing decrypted); null when the vault cannot say. */
  private stored(name: string): boolean | null {
    try {
      return this.deps.vault.has(name);
    } catch {
      return null;
    }
  }
}

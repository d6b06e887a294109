import { z } from "@muster/plugin";
import { UPDATE_KINDS } from "../services/update-kind.ts";

/** `GET /api/messenger` (services/messenger-status.ts): never a secret's value. */
export const messengerStatusResponse = z.object({
  ok: z.literal(true),
  configured: z.boolean().describe("All three secrets are stored: approvals are pushed and the webhook takes updates"),
  mode: z.enum(["webhook", "notices-only", "off"]).describe("notices-only: the bot token and chat id are stored but not TELEGRAM_WEBHOOK_SECRET (pushes go out, presses are refused)"),
  vault: z.enum(["unlocked", "locked", "wrong-key"]),
  secrets: z.array(z.object({ name: z.string(), stored: z.boolean().nullable().describe("null while the vault cannot be read") })),
  webhookPath: z.string(),
  apiBaseUrl: z.string(),
  decidedBy: z.string().nullable().describe("Who a button press decides as; null: the owner"),
  allowedUsers: z.number().int().describe("How many Telegram user ids may press (0: anyone in the private chat)"),
  lastUpdate: z
    .object({
      updateId: z.number().int(),
      receivedAt: z.string(),
      kind: z.enum(UPDATE_KINDS).nullable().describe("null for updates stored before kinds were recorded"),
      ignored: z.boolean().nullable().describe("It came from another chat than TELEGRAM_CHAT_ID"),
    })
    .nullable(),
  notices: z
    .object({
      since: z.string(),
      sent: z.number().int(),
      failed: z.number().int(),
      skipped: z.number().int().describe("Not tried: the bot token or chat id missing, or the vault unreadable"),
      lastSentAt: z.string().nullable(),
      lastFailure: z
        .object({ at: z.string(), approvalId: z.string(), attempts: z.number().int(), status: z.number().int().nullable().describe("Telegram's HTTP status; null: no answer"), reason: z.string() })
        .nullable(),
    })
    .describe("Approval pushes since the server started (kept in memory)"),
  media: z.object({ saved: z.number().int(), bytes: z.number().int(), lastSavedAt: z.string().nullable() }),
});

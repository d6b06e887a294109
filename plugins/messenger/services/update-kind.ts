import type { TelegramUpdate } from "./telegram-update.ts";

/** What an update carried, as the status route reports it (never its text). */
export const UPDATE_KINDS = ["button", "command", "media", "message", "other"] as const;
export type UpdateKind = (typeof UPDATE_KINDS)[number];

/** An approval button press, a `/command`, a photo or document, other text, or something Muster does not read. */
export function updateKind(update: TelegramUpdate): UpdateKind {
  if (update.callback_query) return "button";
  const message = update.message;
  if (!message) return "other";
  if (message.photo || message.document) return "media";
  if (/^\/[a-z]/.test(message.text ?? "")) return "command";
  return "message";
}

/** The chat the update came from, if it names one. */
export const updateChat = (update: TelegramUpdate): number | undefined => (update.callback_query ? update.callback_query.message?.chat.id : update.message?.chat.id);

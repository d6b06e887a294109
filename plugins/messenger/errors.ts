import { defineErrors } from "@muster/plugin";

/** The messenger plugin's error catalogue. */
export const messengerErrors = defineErrors("messenger", {
  MESSENGER_NOT_CONFIGURED: {
    status: 409,
    message: "The messenger is not configured: store {secrets} in the vault (docs/messenger.md)",
  },
  MESSENGER_WEBHOOK_UNAUTHORIZED: {
    status: 401,
    message: "The X-Telegram-Bot-Api-Secret-Token header is missing or wrong",
  },
  MESSENGER_UPDATE_INVALID: { status: 400, message: "The body is not a Telegram update: {summary}" },
  MESSENGER_MEDIA_NOT_FOUND: { status: 404, message: "No stored media file with id {id}" },
});

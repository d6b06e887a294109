import { defineRoutes, z } from "@muster/plugin";
import { MESSENGER_MEDIA, MESSENGER_STATUS, MESSENGER_WEBHOOK } from "../tokens.ts";
import { messengerStatusResponse } from "./status-schema.ts";

export const messengerRoutes = defineRoutes({
  deps: { webhook: MESSENGER_WEBHOOK, status: MESSENGER_STATUS, media: MESSENGER_MEDIA },
  mount: (router, { webhook, status, media }) => {
    router.get(
      "/api/messenger",
      {
        summary: "The messenger's state: configured or not (secret names only), mode, the last update taken, approval pushes sent and failed, media saved",
        description: "Never returns a secret's value. Push counts are kept in memory since the server started (notices.since).",
        query: z.strictObject({}),
        response: messengerStatusResponse,
      },
      async () => ({ ok: true, ...(await status.read()) }),
    );

    router.get(
      "/api/messenger/media/:id",
      {
        summary: "A photo or document received from the chat (the id of messenger.media.saved), as stored: its bytes with its type, as an attachment",
        description: "Answers through any instance of a team (there its bytes are in the database). 404 MESSENGER_MEDIA_NOT_FOUND when no file with this id is stored.",
        params: z.strictObject({ id: z.string().uuid() }),
        query: z.strictObject({}),
        raw: true,
      },
      async ({ params, koa }) => {
        const file = await media.read(params.id);
        koa.status = 200;
        koa.type = file.mimeType;
        // Never rendered as a page of Muster's origin: downloaded, its type as stored.
        koa.set("content-disposition", `attachment; filename="${file.name}"`);
        koa.set("x-content-type-options", "nosniff");
        koa.body = file.bytes;
      },
    );

    router.post(
      "/api/messenger/webhook",
      {
        summary: "Telegram Bot API webhook: approval buttons (approve:<id> / reject:<id>), /status, photos and documents",
        description:
          "Needs X-Telegram-Bot-Api-Secret-Token equal to the vault's TELEGRAM_WEBHOOK_SECRET (401 MESSENGER_WEBHOOK_UNAUTHORIZED; 409 MESSENGER_NOT_CONFIGURED without the secrets). " +
          "The secret is checked before the body is read as an update. Answers 200 { ok, outcome: handled | duplicate | ignored }.",
        // Any JSON: the update is validated after the secret, so an unauthenticated caller learns nothing from validation errors.
        body: z.json(),
        response: z.object({ ok: z.literal(true), outcome: z.enum(["handled", "duplicate", "ignored"]) }),
      },
      async ({ body, koa, agentId }) => ({
        ok: true,
        ...(await webhook.handle({ secretHeader: koa.get("x-telegram-bot-api-secret-token") || undefined, body, agentId })),
      }),
    );
  },
});

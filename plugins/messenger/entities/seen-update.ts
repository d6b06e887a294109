import { defineEntity, p, type EntityRow } from "@muster/plugin";

/** A Telegram `update_id` already handled (`messenger_seen_updates`), kept so a replay does nothing, also after a restart. Bounded (config `maxSeenUpdates`). */
export const SeenUpdate = defineEntity({
  name: "SeenUpdate",
  tableName: "messenger_seen_updates",
  properties: {
    // Telegram assigns the ids; SQLite must not.
    updateId: p.integer().primary().autoincrement(false),
    receivedAt: p.string(),
    /** What the update carried (services/update-kind.ts); null for updates stored before it was recorded. */
    kind: p.string().nullable(),
    /** 1 when it came from another chat than TELEGRAM_CHAT_ID (answered `ignored`); null when unknown. */
    ignored: p.boolean().nullable(),
  },
  checks: [{ name: "messenger_seen_updates_ignored_check", expression: "ignored IN (0, 1)" }],
});

export type SeenUpdateRow = EntityRow<typeof SeenUpdate>;

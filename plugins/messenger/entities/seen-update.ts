import { defineEntity, p, type EntityRow } from "@muster/plugin";

/** A Telegram `update_id` already handled (`messenger_seen_updates`), kept so a replay does nothing, also after a restart. Bounded (config `maxSeenUpdates`). */
export const SeenUpdate = defineEntity({
  name: "SeenUpdate",
  tableName: "messenger_seen_updates",
  properties: {
    // Telegram assigns the ids; SQLite must not.
    updateId: p.integer().primary().autoincrement(false),
    receivedAt: p.string(),
  },
});

export type SeenUpdateRow = EntityRow<typeof SeenUpdate>;

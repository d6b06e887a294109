import { defineEntity, p, type EntityRow } from "@muster/plugin";

/** A photo or document received from the chat and stored under `MUSTER_HOME/media` (`messenger_media`). */
export const MediaFile = defineEntity({
  name: "MediaFile",
  tableName: "messenger_media",
  properties: {
    id: p.string().primary(),
    updateId: p.integer(),
    /** Path relative to MUSTER_HOME (`media/<id>.<ext>`); never a name from the sender. */
    path: p.string(),
    mimeType: p.string(),
    sizeBytes: p.integer(),
    createdAt: p.string(),
  },
});

export type MediaFileRow = EntityRow<typeof MediaFile>;

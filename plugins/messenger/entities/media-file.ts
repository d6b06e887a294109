import { defineEntity, p, type EntityRow } from "@muster/plugin";

/**
 * A photo or document received from the chat (`messenger_media`). On SQLite (one process) its
 * bytes are the file `path` under `MUSTER_HOME/media`. In team mode (PostgreSQL) they are
 * `content`, within `media.maxBytes`: any instance may answer the next request for it, and an
 * instance's home is its own (the shared workspace is no place for them: it is watched, indexed
 * and logged as the crew's files).
 */
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
    /** Team mode: the file's bytes; null on SQLite (the file under MUSTER_HOME). */
    content: p.blob().$type<Buffer>().nullable(),
  },
});

export type MediaFileRow = EntityRow<typeof MediaFile>;

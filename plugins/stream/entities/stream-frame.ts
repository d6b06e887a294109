import { defineEntity, p } from "@muster/plugin";

/**
 * Team mode (PostgreSQL, several instances): every public frame, in the order the database
 * numbered it. Each instance streams the frames of every instance from here, and the id
 * (with the origin below) is the frame's `id:`, so `Last-Event-ID` means the same on all of
 * them. Unused on SQLite, where one process streams from memory. Pruned to the newest few
 * thousand (team-relay.ts).
 */
export const StreamFrame = defineEntity({
  name: "StreamFrame",
  tableName: "stream_frames",
  properties: {
    id: p.integer().primary().autoincrement(),
    /** The frame's JSON (`{type:"event",…}` or `{type:"file_change",…}`), as sent. */
    message: p.text(),
    createdAt: p.string(),
  },
});

/** The one row naming the deployment's stream: the `<origin>` part of every frame id. */
export const StreamOrigin = defineEntity({
  name: "StreamOrigin",
  tableName: "stream_origin",
  properties: {
    id: p.integer().primary().autoincrement(false),
    bootId: p.string(),
  },
});

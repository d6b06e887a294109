import { defineEntity, p, type EntityRow } from "@muster/plugin";

/**
 * Team mode (PostgreSQL): the chat turns running on every instance, so that `GET
 * /api/chat/turns` and `POST /api/chat/turns/:id/abort` answer for the deployment, not only
 * for the instance running the turn (services/team-turns.ts). A row lives while its turn runs
 * on `owner`; an abort through another instance sets `abortRequestedAt` and waits for the
 * owner to write how the turn ended (`finished`), which is kept a minute for that reader.
 * Rows of instances that died are not listed and are removed by every instance's 2 s sweep.
 * Unused on SQLite (one process: the in-memory registry is all). The one declaration of
 * `chat_turns` (migrations.ts creates it; a test checks they agree).
 */
export const ChatTurn = defineEntity({
  name: "ChatTurn",
  tableName: "chat_turns",
  properties: {
    id: p.string().primary(),
    sessionId: p.string(),
    /** The instance running the turn (`hostTokens.instances.id`). */
    owner: p.string(),
    startedAt: p.string(),
    /** The turn as `GET /api/chat/turns` shows it (JSON), rewritten when it changes. */
    record: p.text(),
    /** Set by an abort through another instance: the owner aborts the turn when it reads it. */
    abortRequestedAt: p.string().nullable(),
    /** How the turn ended (JSON, the abort route's answer), written only when an abort was requested. */
    finished: p.text().nullable(),
    finishedAt: p.string().nullable(),
  },
  indexes: [{ name: "chat_turns_by_owner", properties: ["owner"] }],
});

export type ChatTurnRow = EntityRow<typeof ChatTurn>;

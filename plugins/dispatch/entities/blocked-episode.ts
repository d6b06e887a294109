import { defineEntity, p, type EntityRow } from "@muster/plugin";

/**
 * A task currently `blocked` whose escalation was sent: one row per blocked episode, so a
 * task is escalated once when it becomes blocked, not on every later update while blocked.
 */
export const BlockedEpisode = defineEntity({
  name: "BlockedEpisode",
  tableName: "dispatch_blocked_episodes",
  properties: {
    taskId: p.string().primary(),
    notifiedAt: p.string(),
  },
});

export type BlockedEpisodeRow = EntityRow<typeof BlockedEpisode>;

import { defineEntity, p } from "@muster/plugin";

/** One agent's stand-up for one day (UTC); its table carries the plugin's prefix (standup_). */
export const StandupNote = defineEntity({
  name: "StandupNote",
  tableName: "standup_notes",
  properties: {
    id: p.integer().primary().autoincrement(),
    agent: p.string(),
    /** `YYYY-MM-DD`, UTC. */
    day: p.string(),
    yesterday: p.string(),
    today: p.string(),
    /** Empty when nothing blocks the agent. */
    blockers: p.string(),
    postedAt: p.string(),
  },
});

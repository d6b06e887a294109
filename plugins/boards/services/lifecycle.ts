import { defineHook, hostTokens, retryWhileLocked } from "@muster/plugin";
import { BOARDS } from "../tokens.ts";

type LinkField = "storyId" | "epicId" | "sprintId";

/**
 * Cards keep no link to a deleted story, epic or sprint: the work plugin's public deletion
 * events clear them. The deletion has committed already, so a database locked by another
 * process is waited out rather than leaving the link behind.
 */
export const startBoards = defineHook({
  deps: { boards: BOARDS, events: hostTokens.events },
  run: ({ boards, events }, ctx) => {
    const clear = (field: LinkField, id: string) => retryWhileLocked(() => boards.clearLink(field, id));
    const unsubscribe = [
      events.subscribe("work.story.deleted", (e) => clear("storyId", e.payload.id)),
      events.subscribe("work.epic.deleted", (e) => clear("epicId", e.payload.id)),
      events.subscribe("work.sprint.deleted", (e) => clear("sprintId", e.payload.id)),
    ];
    ctx.lifecycle.onStop(() => unsubscribe.forEach((stop) => stop()));
  },
});

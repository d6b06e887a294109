import type { PluginContext } from "@muster/plugin";
import { BOARDS } from "../tokens.ts";

/** Cards keep no link to a deleted story, epic or sprint: the work plugin's public deletion events clear them. */
export function startBoards(ctx: PluginContext): void {
  const boards = () => ctx.resolve(BOARDS);
  const unsubscribe = [
    ctx.events.subscribe("work.story.deleted", (e) => boards().clearLink("storyId", e.payload.id)),
    ctx.events.subscribe("work.epic.deleted", (e) => boards().clearLink("epicId", e.payload.id)),
    ctx.events.subscribe("work.sprint.deleted", (e) => boards().clearLink("sprintId", e.payload.id)),
  ];
  ctx.lifecycle.onStop(() => unsubscribe.forEach((stop) => stop()));
}

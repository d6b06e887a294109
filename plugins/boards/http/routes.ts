import type { PluginContext, PluginRouter } from "@muster/plugin";
import { BOARDS } from "../tokens.ts";
import { mountBoardEndpoints } from "./board-routes.ts";
import { mountCardEndpoints } from "./card-routes.ts";

export function mountBoardRoutes(router: PluginRouter, ctx: PluginContext): void {
  const boards = () => ctx.resolve(BOARDS);
  mountBoardEndpoints(router, boards);
  mountCardEndpoints(router, boards);
}

/** Who makes a change: the calling agent, else the body's `by`, else the human user. */
export const actor = (agentId: string | null, by?: string) => agentId ?? by ?? "user";

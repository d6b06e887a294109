import { defineService, hostTokens, type PluginContext } from "@muster/plugin";
import { WORK } from "../../work/tokens.ts";
import { BOARD_IMPORTER } from "../tokens.ts";
import { BoardImporter } from "./board-importer.ts";

/** Provides the board importer (writes through the work plugin's service). */
export function registerBoardServices(ctx: PluginContext): void {
  ctx.provide(
    defineService({
      token: BOARD_IMPORTER,
      deps: { workspace: hostTokens.workspace, work: WORK, events: hostTokens.events },
      create: (deps) => new BoardImporter(deps),
    }),
  );
}

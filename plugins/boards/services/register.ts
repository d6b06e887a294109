import { defineGatedAction, defineService, hostTokens, type PluginContext } from "@muster/plugin";
import { APPROVALS } from "../../approvals/tokens.ts";
import { WORK } from "../../work/tokens.ts";
import { BOARDS, type MovePayload } from "../tokens.ts";
import { BoardService, MOVE_KIND } from "./board-service.ts";
import { BoardStore } from "./board-store.ts";
import { CardStore } from "./card-store.ts";

/** Provides the boards service. */
export function registerBoardServices(ctx: PluginContext): void {
  ctx.provide(
    defineService({
      token: BOARDS,
      deps: { db: hostTokens.db, events: hostTokens.events, gate: hostTokens.gate, work: WORK, approvals: APPROVALS },
      create: ({ db, events, gate, work, approvals }) =>
        new BoardService({ boards: new BoardStore(() => db), cards: new CardStore(() => db), events, gate, work, approvals }),
    }),
  );
}

/** The gated move (`boards.card.move`): a card entering a column whose policy asks for an approval. */
export const moveCardAction = defineGatedAction({
  kind: MOVE_KIND,
  deps: { boards: BOARDS },
  create: ({ boards }) => ({
    describe: (p: MovePayload) => `Move card ${p.cardId} from ${p.fromColumn} to ${p.patch.column} (requested by ${p.by})`,
    // Re-checks at approval time: the card is still in the column it was in, the target's WIP limit holds.
    execute: (payload: MovePayload) => boards.applyApprovedMove(payload),
  }),
});

// Boards and cards: validation against the current state (templates, links to work records),
// the atomic steps in the stores, then the public events, published after the write commits.
import { randomUUID } from "node:crypto";
import type { ApprovalGate, EventBus } from "@muster/plugin";
import type { ApprovalQueue } from "../../approvals/tokens.ts";
import type { WorkTracker } from "../../work/tokens.ts";
import { boardErrors } from "../errors.ts";
import type { BoardVerb, CardVerb } from "../events.ts";
import { BOARD_TEMPLATES } from "../templates.ts";
import type { Boards, CardInput, CardPatch, CardPatchResult, MovePayload, NewBoard, NewCard } from "../tokens.ts";
import { BoardStore, checkPolicies, type BoardChanges, type CardFilter, type HardDeleted } from "./board-store.ts";
import { BoardViews } from "./board-views.ts";
import { CardStore, type CardFields, type CardWrite } from "./card-store.ts";
import { boardRecord, cardRecord, type BoardRecord, type CardComment, type CardRecord, type HistoryEntry } from "./records.ts";
import type { BoardRow } from "../entities/board.ts";

/** The gated action kind of a move into a `requireApprovalFor` column. */
export const MOVE_KIND = "boards.card.move";

export interface BoardServiceDeps {
  boards: BoardStore;
  cards: CardStore;
  events: EventBus;
  gate: ApprovalGate;
  work: WorkTracker;
  approvals: ApprovalQueue;
}

const LINKS = [
  ["storyId", "story"],
  ["epicId", "epic"],
  ["sprintId", "sprint"],
] as const;

export class BoardService implements Boards {
  private readonly deps: BoardServiceDeps;
  private readonly views: BoardViews;
  constructor(deps: BoardServiceDeps) {
    this.deps = deps;
    this.views = new BoardViews(deps.boards);
  }

  templates() {
    return BOARD_TEMPLATES;
  }

  async listBoards(filter: { archived: boolean; squad?: string }): Promise<BoardRecord[]> {
    return (await this.deps.boards.listBoards(filter)).map(boardRecord);
  }

  async createBoard(input: NewBoard, by: string): Promise<BoardRecord> {
    const template = input.template === undefined ? undefined : BOARD_TEMPLATES.find((t) => t.id === input.template);
    if (input.template !== undefined && !template) throw boardErrors.BOARD_TEMPLATE_NOT_FOUND({ template: input.template });
    const columns = input.columns ?? template?.columns;
    if (!columns) throw boardErrors.BOARD_COLUMNS_REQUIRED({});
    const settings = input.settings ?? template?.settings ?? {};
    const id = randomUUID();
    checkPolicies(id, columns, settings);
    const now = new Date().toISOString();
    const row: BoardRow = {
      id, name: input.name, description: input.description ?? template?.description ?? null, type: input.type ?? template?.type ?? "kanban",
      columns: JSON.stringify(columns), owner: input.owner ?? "user", squad: input.squad ?? null, settings: JSON.stringify(settings),
      version: 0, createdAt: now, updatedAt: now, archivedAt: null,
    };
    await this.deps.boards.insert(row);
    return this.publishBoard("created", row, by);
  }

  async getBoard(id: string): Promise<BoardRecord> {
    const row = await this.deps.boards.findBoard(id);
    if (!row) throw boardErrors.BOARD_NOT_FOUND({ id });
    return boardRecord(row);
  }

  boardView(id: string): Promise<Buffer> {
    return this.views.get(id);
  }

  async updateBoard(id: string, changes: BoardChanges, by: string): Promise<BoardRecord> {
    const { before, after } = await this.deps.boards.update(id, changes, new Date().toISOString());
    const verb: BoardVerb = before.archivedAt === after.archivedAt ? "updated" : after.archivedAt ? "archived" : "restored";
    return this.publishBoard(verb, after, by);
  }

  async hardDeleteBoard(id: string): Promise<HardDeleted> {
    const deleted = await this.deps.boards.hardDelete(id);
    this.views.forget(id);
    this.deps.events.publish("boards.board.deleted", { id, cards: deleted.cards }, { public: true });
    return deleted;
  }

  async listCards(boardId: string, filter: CardFilter): Promise<CardRecord[]> {
    const board = await this.getBoard(boardId);
    const order = new Map(board.columns.map((c, i) => [c.id, i]));
    const rows = await this.deps.boards.listCards(boardId, filter);
    // Column order is the board's, not the ids' alphabetical order; stable within a column.
    return rows.sort((a, b) => (order.get(a.column) ?? 0) - (order.get(b.column) ?? 0)).map(cardRecord);
  }

  async createCard(boardId: string, input: NewCard, by: string): Promise<CardRecord> {
    const { title, column, position, comment, ...rest } = input;
    const fields = await this.fields(rest);
    const write = await this.deps.cards.create({ boardId, title, column, position, comment, fields, createdBy: by }, new Date().toISOString());
    const record = this.publishCard("created", write);
    await this.clearLinksDeletedMeanwhile(rest);
    return record;
  }

  async getCard(id: string): Promise<{ card: CardRecord; history: HistoryEntry[] }> {
    const row = await this.deps.boards.findCard(id);
    if (!row) throw boardErrors.CARD_NOT_FOUND({ id });
    return { card: cardRecord(row), history: await this.deps.boards.history(id) };
  }

  async changeCard(id: string, patch: CardPatch, by: string): Promise<CardPatchResult> {
    return this.applyChange(id, patch, by, undefined);
  }

  /** The gated move's executor: the stored PATCH, applied if the card is still in the column it was in. */
  async applyApprovedMove(payload: MovePayload): Promise<{ card: CardRecord }> {
    const result = await this.applyChange(payload.cardId, payload.patch, payload.by, payload.fromColumn);
    return result as { card: CardRecord };
  }

  async hardDeleteCard(id: string): Promise<void> {
    const card = await this.deps.cards.hardDelete(id);
    this.deps.events.publish("boards.card.deleted", { id, boardId: card.boardId }, { public: true });
  }

  async comments(cardId: string): Promise<CardComment[]> {
    if (!(await this.deps.boards.findCard(cardId))) throw boardErrors.CARD_NOT_FOUND({ id: cardId });
    return this.deps.boards.comments(cardId);
  }

  async addComment(cardId: string, content: string, author: string): Promise<CardComment> {
    const write = await this.deps.cards.addComment(cardId, content, author, new Date().toISOString());
    return this.publishComment(write)!;
  }

  async claim(cardId: string, agentId: string): Promise<CardRecord> {
    return this.publishCard("claimed", await this.deps.cards.claim(cardId, agentId, new Date().toISOString()));
  }

  async delegate(cardId: string, input: { boardId: string; assignee?: string; message?: string }, by: string): Promise<{ card: CardRecord; delegatedCard: CardRecord }> {
    const { source, delegated } = await this.deps.cards.delegate(cardId, { ...input, by }, new Date().toISOString());
    const delegatedCard = this.publishCard("created", delegated);
    return { card: this.publishCard("delegated", source), delegatedCard };
  }

  /** A story, epic or sprint was deleted: cards linking it lose the link (history `unlinked`). */
  async clearLink(field: "storyId" | "epicId" | "sprintId", linkedId: string): Promise<void> {
    for (const write of await this.deps.cards.clearLink(field, linkedId, new Date().toISOString())) this.publishCard("updated", write);
  }

  private async applyChange(id: string, patch: CardPatch, by: string, fromColumn: string | undefined): Promise<CardPatchResult> {
    const { column, position, archived, comment, ...rest } = patch;
    const fields = await this.fields(rest);
    const move = column !== undefined || position !== undefined ? { column, position } : undefined;
    const result = await this.deps.cards.change(
      id,
      { fields, move, archived, comment, by, approved: fromColumn !== undefined, expect: fromColumn === undefined ? undefined : { column: fromColumn } },
      new Date().toISOString(),
    );
    if ("needsApproval" in result) {
      const { card, column: target } = result.needsApproval;
      const payload: MovePayload = { cardId: id, fromColumn: card.column, patch, by };
      const { approvalId } = await this.deps.gate.request(MOVE_KIND, payload, {
        requestedBy: by,
        title: `Move card "${card.title}" to ${target}`,
        taskId: card.id,
        context: `Board ${card.boardId}: the column ${target} requires a human approval for every card moved into it.`,
      });
      return { approval: await this.deps.approvals.get(approvalId) };
    }
    const card = this.publishWrite(result);
    await this.clearLinksDeletedMeanwhile(rest);
    return { card };
  }

  /**
   * A link checked by `fields` whose story, epic or sprint was deleted before the card's write
   * committed: the deletion's event may have cleared links before this card had one (on
   * PostgreSQL the check and the write are separate I/O turns), so look again now that the
   * write is committed and clear it. A deletion committing after this look clears it itself.
   */
  private async clearLinksDeletedMeanwhile(input: CardInput): Promise<void> {
    for (const [field, kind] of LINKS) {
      const value = input[field];
      if (typeof value === "string" && !(await this.deps.work.exists(kind, value))) await this.clearLink(field, value);
    }
  }

  /** API field values to stored ones; links to stories, epics and sprints must exist. */
  private async fields(input: CardInput): Promise<CardFields> {
    for (const [field, kind] of LINKS) {
      const value = input[field];
      if (typeof value === "string" && !(await this.deps.work.exists(kind, value))) {
        throw boardErrors.CARD_LINK_NOT_FOUND({ field, kind, id: value }, { details: [{ path: field, reason: `no ${kind} with id ${value}`, in: "body" }] });
      }
    }
    const fields: CardFields = {};
    for (const [key, value] of Object.entries(input) as [keyof CardInput, unknown][]) {
      if (value === undefined) continue;
      fields[key] = key === "labels" || key === "checklist" || key === "attachments" ? JSON.stringify(value) : (value as string | number | null);
    }
    return fields;
  }

  private publishWrite(write: CardWrite): CardRecord {
    const actions = new Set(write.history.map((h) => h.action));
    const verb: CardVerb = actions.has("restored") ? "restored" : actions.has("archived") ? "archived" : actions.has("moved") ? "moved" : "updated";
    const record = write.history.some((h) => h.action !== "commented") ? this.publishCard(verb, write) : cardRecord(write.card);
    this.publishComment(write);
    if (write.followed) this.publishCard("completed", write.followed);
    return record;
  }

  private publishCard(verb: CardVerb, write: CardWrite): CardRecord {
    const card = cardRecord(write.card);
    const by = write.history[0]?.by ?? card.createdBy;
    this.deps.events.publish(`boards.card.${verb}`, { card, by, changes: write.history }, { public: true });
    return card;
  }

  private publishComment(write: CardWrite): CardComment | undefined {
    if (!write.comment) return undefined;
    const comment = write.comment;
    this.deps.events.publish("boards.card.commented", { card: cardRecord(write.card), comment }, { public: true });
    return comment;
  }

  private publishBoard(verb: BoardVerb, row: BoardRow, by: string): BoardRecord {
    const board = boardRecord(row);
    this.deps.events.publish(`boards.board.${verb}`, { board, by }, { public: true });
    return board;
  }
}

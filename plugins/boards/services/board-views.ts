// `GET /api/boards/{id}` for a board of 10,000 cards must answer in a few milliseconds: the
// answer is built once per board version (on SQLite, SQLite serialises the cards) and kept as bytes.
import { boardErrors } from "../errors.ts";
import type { BoardStore } from "./board-store.ts";
import { boardRecord } from "./records.ts";

/** Boards whose answer is kept; the least recently built is dropped first. */
const MAX_CACHED = 16;

export class BoardViews {
  private readonly store: BoardStore;
  private readonly cache = new Map<string, { version: number; body: Buffer }>();
  constructor(store: BoardStore) {
    this.store = store;
  }

  /** `{ ok: true, board, cards }` as JSON bytes; cards in column order, then position. */
  async get(id: string): Promise<Buffer> {
    const version = await this.store.version(id);
    if (version === undefined) {
      this.cache.delete(id);
      throw boardErrors.BOARD_NOT_FOUND({ id });
    }
    const cached = this.cache.get(id);
    if (cached?.version === version) return cached.body;
    const snapshot = await this.store.snapshot(id);
    if (!snapshot) throw boardErrors.BOARD_NOT_FOUND({ id });
    const body = Buffer.from(`{"ok":true,"board":${JSON.stringify(boardRecord(snapshot.board))},"cards":${snapshot.cardsJson}}`);
    this.cache.delete(id);
    this.cache.set(id, { version: snapshot.board.version, body });
    if (this.cache.size > MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
    return body;
  }

  forget(id: string): void {
    this.cache.delete(id);
  }
}

/**
 * Follows a table whose rows are numbered in commit order (team mode's relays: the stream's
 * frames, the gateway's events): each `read()` delivers every row after the last one
 * delivered, in id order, in batches. Reads never overlap; a `read()` called while one runs
 * makes that one read again when it is done, so a wake-up (a NOTIFY) is never lost and never
 * doubles a delivery. A failed read is logged and the next wake-up reads from the same id.
 */
export interface IdFollowerOptions<Row extends { id: number | string }> {
  /** Up to `limit` rows with an id above `afterId`, in id order. */
  readAfter: (afterId: number, limit: number) => Promise<Row[]>;
  deliver: (row: Row, id: number) => void;
  /** Rows per query when catching up. */
  batch?: number;
  /** Stops catching up early (the relay was stopped). */
  stopped?: () => boolean;
  /** Logged, with the error, when a read fails. */
  onReadFailed: (error: unknown) => void;
}

export class IdFollower<Row extends { id: number | string }> {
  /** The id of the last row delivered. */
  lastId = 0;
  private reading = false;
  private readAgain = false;
  private readonly options: IdFollowerOptions<Row>;

  constructor(options: IdFollowerOptions<Row>) {
    this.options = options;
  }

  async read(): Promise<void> {
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    const { readAfter, deliver, batch = 500, stopped = () => false, onReadFailed } = this.options;
    this.reading = true;
    try {
      do {
        this.readAgain = false;
        let rows: Row[];
        do {
          rows = await readAfter(this.lastId, batch);
          for (const row of rows) {
            this.lastId = Number(row.id);
            deliver(row, this.lastId);
          }
        } while (rows.length === batch && !stopped());
      } while (this.readAgain && !stopped());
    } catch (error) {
      onReadFailed(error);
    } finally {
      this.reading = false;
    }
  }
}

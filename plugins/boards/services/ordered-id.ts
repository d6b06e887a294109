// History rows and comments are read oldest first: by time, then in the order they were
// written (one move writes several history rows of the same millisecond). SQLite keeps that
// order in its rowid; PostgreSQL has none, and there the store kit breaks such ties by the
// row's id (docs/store-kit.md). So these ids sort in creation order on both engines.
import { randomUUID } from "node:crypto";

let lastMs = 0;
let counter = 0;

/**
 * A UUID version 7 (RFC 9562): the millisecond, then 12 bits that count up within one
 * millisecond in this process (so a step's rows sort as written), then random bits.
 */
export function orderedId(): string {
  let ms = Date.now();
  if (ms > lastMs) {
    lastMs = ms;
    counter = 0;
  } else if (++counter > 0xfff) {
    // 4,096 ids in one millisecond: borrow the next one, as the RFC's counter method does.
    lastMs++;
    counter = 0;
  }
  ms = lastMs;
  const time = ms.toString(16).padStart(12, "0");
  // randomUUID's tail is its variant and 62 random bits: exactly what follows the counter.
  return `${time.slice(0, 8)}-${time.slice(8)}-7${counter.toString(16).padStart(3, "0")}-${randomUUID().slice(19)}`;
}

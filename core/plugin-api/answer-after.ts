// Team mode (issue 25): on PostgreSQL some writes are queued and stored just after the code
// that made them returns (an activity, a notification, a live-stream frame: their callers are
// synchronous). On one process nothing can tell; behind a load balancer, the client's next
// request may reach another instance before the write is stored: the activity a task's
// creation logged is not listed yet, a frame published by an earlier request is numbered after
// a later one's. So a request's answer waits for the queued writes it made: the host runs each
// route (on PostgreSQL only) inside `collectingWrites`, and the queue registers its write with
// `answerAfter`. Outside a request (a timer, a gateway event) `answerAfter` does nothing.
import { AsyncLocalStorage } from "node:async_hooks";

interface RequestWrites {
  writes: Promise<unknown>[];
  /** Cleared once the answer went: a write registered later waits for nothing. */
  open: boolean;
}

const current = new AsyncLocalStorage<RequestWrites>();

/**
 * Makes the answer of the request this code runs for (if any, and if it has not been sent
 * yet) wait for `write()`; `write` is called only then. Its failure does not fail the request
 * (the queue logs its own failures).
 */
export function answerAfter(write: () => Promise<unknown>): void {
  const request = current.getStore();
  if (request?.open) request.writes.push(write());
}

/** Runs `handle` (a request's route), then waits for every write registered during it, also those the awaited writes registered. */
export async function collectingWrites<T>(handle: () => Promise<T>): Promise<T> {
  const request: RequestWrites = { writes: [], open: true };
  try {
    return await current.run(request, handle);
  } finally {
    while (request.writes.length > 0) await Promise.allSettled(request.writes.splice(0));
    request.open = false;
  }
}

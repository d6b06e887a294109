/** Runs tasks one at a time, in order; a failed task does not stop the ones after it. */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const next = this.tail.then(task, task);
    this.tail = next.catch(() => undefined);
    return next;
  }

  /** Resolves once every task queued so far has settled (never rejects). */
  async idle(): Promise<void> {
    await this.tail;
  }
}

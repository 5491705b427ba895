/**
 * Runs async tasks one at a time in the order they are queued. A task's
 * failure is reported to its caller only; the next task still runs.
 */
export class SerialQueue {
  #tail: Promise<void> = Promise.resolve();
  #pending = 0;

  /** Tasks queued and not yet settled. */
  get pending(): number {
    return this.#pending;
  }

  /** Runs `task` after every task queued before it has settled. */
  run<T>(task: () => Promise<T>): Promise<T> {
    this.#pending += 1;
    const result = this.#tail.then(task);
    const settled = (): void => {
      this.#pending -= 1;
    };
    this.#tail = result.then(settled, settled);
    return result;
  }
}

import { DurableError } from "../durable-error";
import type { RecordedStep } from "../recovery-plan";
import { DBOS_RECV, DBOS_SLEEP } from "../step-names";
import type { WorkflowSteps } from "../workflow-steps";

/**
 * DBOS's step semantics in memory, for unit tests: each call takes the next position
 * synchronously; a position recorded by an earlier execution answers its output when the name
 * matches and fails like DBOS (an unexpected step) when it does not; a recv takes two positions
 * (the message, its timeout's sleep) and waits for `send`. `restart()` is a new execution over
 * the same record; steps still running in the old one never record.
 */
export class MemorySteps implements WorkflowSteps {
  readonly recorded = new Map<number, RecordedStep>();
  private next = 0;
  private generation = 0;
  private readonly mailbox = new Map<string, unknown[]>();
  private readonly waiting = new Map<string, (message: unknown) => void>();

  /** A new execution: positions from 0 again, nothing in flight will record. */
  restart(): void {
    this.next = 0;
    this.generation += 1;
    this.waiting.clear();
  }

  /** The record as DBOS lists it. */
  steps(): RecordedStep[] {
    return [...this.recorded.values()].sort((a, b) => a.functionID - b.functionID);
  }

  step(name: string, run: () => Promise<string>): Promise<unknown> {
    const position = this.next;
    this.next += 1;
    const generation = this.generation;
    const known = this.recorded.get(position);
    if (known !== undefined) {
      if (known.name !== name) return Promise.reject(unexpected(position, name, known.name));
      return Promise.resolve(known.output);
    }
    return run().then((output) => {
      if (generation === this.generation)
        this.recorded.set(position, { functionID: position, name, output });
      return output;
    });
  }

  recv(topic: string): Promise<unknown> {
    const position = this.next;
    this.next += 2;
    const known = this.recorded.get(position);
    if (known !== undefined) {
      if (known.name !== DBOS_RECV)
        return Promise.reject(unexpected(position, DBOS_RECV, known.name));
      return Promise.resolve(known.output);
    }
    if (!this.recorded.has(position + 1)) {
      this.recorded.set(position + 1, { functionID: position + 1, name: DBOS_SLEEP, output: null });
    }
    const generation = this.generation;
    return new Promise((resolve) => {
      const deliver = (message: unknown) => {
        if (generation !== this.generation) return;
        this.recorded.set(position, { functionID: position, name: DBOS_RECV, output: message });
        resolve(message);
      };
      const queued = this.mailbox.get(topic);
      if (queued !== undefined && queued.length > 0) deliver(queued.shift());
      else this.waiting.set(topic, deliver);
    });
  }

  /** Sends `message` on `topic`: to its waiting recv, or kept for the next one. */
  send(topic: string, message: unknown): void {
    const waiter = this.waiting.get(topic);
    if (waiter !== undefined) {
      this.waiting.delete(topic);
      waiter(message);
    } else {
      const queued = this.mailbox.get(topic) ?? [];
      queued.push(message);
      this.mailbox.set(topic, queued);
    }
  }
}

function unexpected(position: number, name: string, recorded: string): DurableError {
  return new DurableError(
    "invalid",
    `position ${position}: ${name} asked where ${recorded} was recorded`,
  );
}

import type { ParkOutcome } from "./park-sql";
import type { PortActivity } from "./port-activity";
import type { WorkflowSteps } from "./workflow-steps";

/** A parked execution's steps and its Engine end with this: nothing of it runs any more. */
export class ExecutionParked extends Error {
  override readonly name = "ExecutionParked";
}

/** What parking needs from its worker. */
export interface ParkingDeps {
  /** How long a run waits on asks alone before it is parked (ms; 0: at once). */
  readonly afterMs: number;
  /** How long after a failed or refused attempt the next one is made (ms). */
  readonly retryMs: number;
  /** Parks the run in the database (park-sql.ts `parkRun`). */
  readonly park: (request: {
    readonly runId: string;
    readonly ownerXid: string;
    readonly asks: readonly string[];
  }) => Promise<ParkOutcome>;
  /** Whether the worker still parks (false once it stops). */
  readonly active: () => boolean;
  /** A line for the worker's log. */
  readonly note: (message: string) => void;
}

/**
 * The parking of one execution of a durable run (docs/design/durable.md "Long waits"). It follows
 * the port's activity; once the run has waited `afterMs` on asks with no other effect in flight,
 * it holds the run's new steps (none starts while it decides), and asks the database to park the
 * run. Parked: the held steps and every later one reject without starting, and `onParked` stops
 * the Engine; the run is recovered from its record once answered. Not parked (an answer is there,
 * the database could not be asked, the run is no longer this execution's): the held steps start,
 * in the order they were asked for, and the run goes on where it was.
 */
export class ExecutionParking implements PortActivity {
  private readonly runId: string;
  private readonly ownerXid: string;
  private readonly deps: ParkingDeps;
  private readonly onParked: (reason: ExecutionParked) => void;
  private busy = 0;
  private readonly waiting: string[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private deciding = false;
  private held: { start: () => void; abandon: (reason: ExecutionParked) => void }[] = [];
  /** Set once: the run was parked, this execution is over. */
  parked: ExecutionParked | undefined;
  /** False after a park attempt found the run no longer this execution's. */
  private owner = true;

  constructor(options: {
    readonly runId: string;
    readonly ownerXid: string;
    readonly deps: ParkingDeps;
    readonly onParked: (reason: ExecutionParked) => void;
  }) {
    this.runId = options.runId;
    this.ownerXid = options.ownerXid;
    this.deps = options.deps;
    this.onParked = options.onParked;
  }

  /** `steps` held while a park is decided, and refused once parked. */
  gate(steps: WorkflowSteps): WorkflowSteps {
    const pass = <T>(call: () => Promise<T>): Promise<T> => {
      if (this.parked !== undefined) return Promise.reject(this.parked);
      if (!this.deciding) return call();
      return new Promise<T>((resolve, reject) => {
        this.held.push({ start: () => call().then(resolve, reject), abandon: reject });
      });
    };
    return {
      step: (name, run) => pass(() => steps.step(name, run)),
      recv: (topic) => pass(() => steps.recv(topic)),
    };
  }

  effectStarted(): void {
    this.busy += 1;
    this.rearm(this.deps.afterMs);
  }

  effectSettled(): void {
    this.busy -= 1;
    this.rearm(this.deps.afterMs);
  }

  askWaiting(effect: string): void {
    this.waiting.push(effect);
    this.rearm(this.deps.afterMs);
  }

  askDone(effect: string): void {
    const at = this.waiting.indexOf(effect);
    if (at >= 0) this.waiting.splice(at, 1);
    this.rearm(this.deps.afterMs);
  }

  /** Stops watching (the execution ended). */
  close(): void {
    this.owner = false;
    this.disarm();
  }

  private parkable(): boolean {
    return (
      this.owner &&
      this.parked === undefined &&
      this.busy === 0 &&
      this.waiting.length > 0 &&
      this.deps.active()
    );
  }

  /** Starts the wait of `ms` when the run waits on asks alone; stops it when not. */
  private rearm(ms: number): void {
    if (this.deciding) return;
    if (!this.parkable()) {
      this.disarm();
    } else if (this.timer === undefined) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        void this.attempt();
      }, ms);
      this.timer.unref?.();
    }
  }

  private disarm(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async attempt(): Promise<void> {
    if (!this.parkable()) return;
    // Held from here (synchronously, before any step could start) until decided.
    this.deciding = true;
    const asks = [...this.waiting];
    let outcome: ParkOutcome | undefined;
    try {
      outcome = await this.deps.park({ runId: this.runId, ownerXid: this.ownerXid, asks });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.deps.note(
        `run ${this.runId}: cannot park it on its ask (${message}); it keeps its slot, trying again in ${this.deps.retryMs} ms`,
      );
    }
    this.deciding = false;
    const held = this.held;
    this.held = [];
    if (outcome === "parked") {
      const parked = new ExecutionParked(
        `run ${this.runId} was parked on its ask ${asks[0]}: its record goes on once answered`,
      );
      this.parked = parked;
      for (const step of held) step.abandon(parked);
      this.deps.note(
        `parked run ${this.runId} on its ask ${asks[0]}: its slot is free; an answer puts it back on the queue`,
      );
      this.onParked(parked);
      return;
    }
    if (outcome === "not_owner") this.owner = false;
    // In the order they were asked for, in one synchronous stretch: the positions they would have had.
    for (const step of held) step.start();
    this.rearm(this.deps.retryMs);
  }
}

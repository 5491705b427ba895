import type { WorkflowSteps } from "./workflow-steps";

/**
 * The worker's gate over every DBOS step and recv of its runs: while open, calls pass and the
 * steps in flight are counted; once draining, a new call never starts (its promise never
 * settles: the run stops there, as a killed process would, and its recovery performs it), and
 * `drain` resolves when the steps already in flight have settled (recorded by DBOS).
 */
export class StepGate {
  private inFlight = 0;
  private draining = false;
  private readonly idle: (() => void)[] = [];

  /** The gated steps over `steps`. */
  gate(steps: WorkflowSteps): WorkflowSteps {
    return {
      step: (name, run) => {
        if (this.draining) return new Promise<never>(() => undefined);
        this.inFlight += 1;
        const settled = steps.step(name, run);
        settled.then(
          () => this.leave(),
          () => this.leave(),
        );
        return settled;
      },
      recv: (topic) => (this.draining ? new Promise<never>(() => undefined) : steps.recv(topic)),
    };
  }

  /** Steps started and not yet settled. */
  get pending(): number {
    return this.inFlight;
  }

  /** Stops new steps and resolves once every step in flight has settled. */
  drain(): Promise<void> {
    this.draining = true;
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private leave(): void {
    this.inFlight -= 1;
    if (this.inFlight === 0 && this.draining) for (const resolve of this.idle.splice(0)) resolve();
  }
}

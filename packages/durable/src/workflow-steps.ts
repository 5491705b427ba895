/**
 * The two DBOS operations a durable run records, as the port sees them. Each call takes its
 * DBOS position synchronously, at the call (DBOS numbers a workflow's steps in call order), so
 * calls made in one synchronous stretch take consecutive positions.
 */
export interface WorkflowSteps {
  /** Runs `run` as a DBOS step named `name`, or answers its recorded output. */
  step(name: string, run: () => Promise<string>): Promise<unknown>;
  /** Waits on a DBOS notification of `topic` to this workflow (DBOS.recv); null past the deadline. */
  recv(topic: string): Promise<unknown>;
}

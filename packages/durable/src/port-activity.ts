/**
 * What a durable port reports of its effects as they go (for parking, ask-parking.ts): an
 * effect's step started or settled, and when an ask starts and stops waiting for its answer
 * (from its marker's record to the answer's arrival).
 */
export interface PortActivity {
  /** An effect (or an ask's marker) is in flight. */
  effectStarted(): void;
  /** That effect settled. */
  effectSettled(): void;
  /** The ask `effect` is recorded and waits for its answer. */
  askWaiting(effect: string): void;
  /** The ask `effect` has its answer (or failed, or was abandoned). */
  askDone(effect: string): void;
}

/** Why a durable operation was refused. */
export type DurableErrorReason =
  /** No durable run has that id. */
  | "no_such_run"
  /** An answer for a run that waits on no ask. */
  | "not_waiting"
  /** A worker of one Runvil version met a run journaled by another. */
  | "version_mismatch"
  /** A recovered run asked for an effect other than the recorded one (its prompt changed). */
  | "divergence"
  /** The run's workflow failed (it threw; not a run that ended `failed`, which is a result). */
  | "failed"
  /** A wait for a run's result passed its timeout. */
  | "timeout"
  /** Bad input to the API: a malformed run input, option or step record. */
  | "invalid";

/** Every refusal of `@runvil/durable`: a reason and a message that names what was wrong and where. */
export class DurableError extends Error {
  readonly reason: DurableErrorReason;

  constructor(reason: DurableErrorReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DurableError";
    this.reason = reason;
  }
}

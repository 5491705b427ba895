/** Why the inspector could not start. */
export type InspectorErrorReason = "port_in_use" | "listen_failed" | "page_missing" | "bad_option";

/** A failure to start the inspector: the message names what was wrong and what to do. */
export class InspectorError extends Error {
  override readonly name = "InspectorError";
  readonly reason: InspectorErrorReason;

  constructor(reason: InspectorErrorReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
}

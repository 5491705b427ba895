/**
 * A reply the adapter refuses (too many tool calls, too large): not retried; its message is
 * model-safe and becomes the round's `internal` failure after the provider's name.
 */
export class ReplyRefused extends Error {
  override readonly name = "ReplyRefused";
}

/**
 * A reply stream that broke off (the connection closed, or the stream errored, before the
 * finish part) or went silent past the idle timeout: retried like a network failure.
 */
export class StreamBroken extends Error {
  override readonly name = "StreamBroken";
}

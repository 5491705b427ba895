/**
 * The most tool calls one reply may hold: the Engine's own limit (docs/design/loop.md §3.4).
 * The adapter stops reading a reply past it, so a reply of 10,000 calls fails at once, naming
 * the provider, instead of being built in full.
 */
export const MAX_REPLY_TOOL_CALLS = 256;

/** The most bytes of text and tool-call input one reply may hold (the Engine's reply limit). */
export const MAX_REPLY_BYTES = 8_388_608;

import type { ToolDefinition } from "./tool";

/**
 * A Pack: the unit that supplies tools (and a Lua prelude) to runs. Its fully qualified name is
 * `{vendor}/{name}`; its Pack id is `name`, and every tool id starts with it.
 */
export interface PackDefinition {
  /** The vendor segment: `runvil` for the official Packs, your own (`acme`) otherwise. */
  readonly vendor: string;
  /** The Pack id (one name segment, such as `web`). */
  readonly name: string;
  /** One sentence saying what the Pack is for. */
  readonly description: string;
  /** The service ids the Pack needs; a run without one of them cannot use the Pack. */
  readonly services?: readonly string[];
  /**
   * Lua source run in every section VM of a prompt that declares the Pack, with `...` holding
   * the Pack id; the globals it assigns become the section's globals.
   */
  readonly prelude?: string;
  /** The tools the Pack contributes. */
  // biome-ignore lint/suspicious/noExplicitAny: tools of any argument type share one list
  readonly tools: readonly ToolDefinition<any>[];
  /**
   * Builds or starts the Pack when the Host sets up. Throwing makes the Pack unavailable, with
   * the error's message as the reason (`- {pack} is unavailable: {reason}`).
   */
  start?(): void | Promise<void>;
  /**
   * Releases what the Pack holds (a server process, a connection) when the Host closes
   * (`host.close()`): called once, for every registered Pack (also one whose `start` threw, which
   * may have half started), all at once, and awaited. It must not throw: a throw or rejection is
   * ignored, so one Pack cannot keep the others open. A Pack without resources leaves it out.
   */
  close?(): void | Promise<void>;
}

/** Declares a Pack (an identity function that checks the shape at compile time). */
export function definePack(pack: PackDefinition): PackDefinition {
  return pack;
}

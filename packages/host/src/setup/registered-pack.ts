import type { PackDefinition, ToolDefinition } from "@runvil/sdk";

/** A Pack in the Host's registry, as setup left it. */
export interface RegisteredPack {
  /** The fully qualified name, `{vendor}/{name}`. */
  readonly fullName: string;
  /** The vendor segment. */
  readonly vendor: string;
  /** The Pack id (the name segment). */
  readonly id: string;
  /** The plugin that added it (its name). */
  readonly plugin: string;
  /** The Pack as the plugin gave it. */
  readonly definition: PackDefinition;
  /** The service ids it needs, each once, in the Pack's order. */
  readonly services: readonly string[];
  /** Its tools that passed the id checks, sorted by tool id. */
  readonly tools: readonly ToolDefinition[];
  /** Why it cannot serve any run (its `start()` threw), or null when it started. */
  startFailure: string | null;
}

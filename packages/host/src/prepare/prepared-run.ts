import type { RunCatalog } from "@runvil/protocol";
import type { ModelProvider, Services, ToolDefinition } from "@runvil/sdk";
import type { PreparedModelRole } from "./bind-models";

/** One Pack of a prepared run, for display (the CLI's and the testkit's reports). */
export interface PreparedPack {
  /** The Pack id (`web`). */
  readonly id: string;
  /** The fully qualified name (`runvil/web`). */
  readonly fullName: string;
  /** Whether the prompt declares it under `uses:`. */
  readonly declared: boolean;
  /** Null when it serves the run; else why not (the reason the run reports). */
  readonly unavailable: string | null;
  /** The Pack's description. */
  readonly description: string;
  /** The name of the plugin that added it. */
  readonly plugin: string;
  /** The ids of its tools in the run's catalog, sorted (empty when it cannot serve). */
  readonly tools: readonly string[];
}

/** A run the Host prepared: what the Engine and the ToolDispatcher are given. */
export interface PreparedRun {
  /** The Engine's `RunOptions.catalog`. */
  readonly catalog: RunCatalog;
  /** Every catalog tool by id, in id order: the ToolDispatcher's `tools`. */
  readonly tools: ReadonlyMap<string, ToolDefinition>;
  /** The run's services (the Host's with the run's own laid over them). */
  readonly services: Services;
  /** The run's Packs, sorted by Pack id (the same Packs as `catalog.packs`). */
  readonly packs: readonly PreparedPack[];
  /** Every model role, bound, in `models:` order, with its provider and which rule bound it. */
  readonly models: readonly PreparedModelRole[];
  /** The provider of every bound catalog id: the Harness's model port's `providers`. */
  readonly modelProviders: ReadonlyMap<string, ModelProvider>;
}

/** What prepare answers: a run that can start, or the requirements notice that refuses it. */
export type PrepareResult =
  | { readonly ok: true; readonly run: PreparedRun }
  | { readonly ok: false; readonly notice: string };

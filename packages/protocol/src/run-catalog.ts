import type { JsonValue, ModelPrices, ModelSettings } from "@runvil/sdk";
import type { RunBudget } from "./run-budget";

/**
 * One catalog tool as the Engine sees it: its data, never its code (tools chapter, "Who runs a
 * tool"). The Host builds these at prepare.
 */
export interface CatalogTool {
  /** The tool id, such as `web/fetch`; its first segment is `pack`. */
  readonly id: string;
  /** The Pack id of the Pack that contributed it. */
  readonly pack: string;
  /**
   * The wire name the model sees (`web_fetch`), or null when the run left the tool out of its
   * offering (its wire name is a task built-in's, its schema is not a JSON object, or another
   * tool holds its wire name): such a tool has no Tool object, but `tools.call` by id runs it.
   */
  readonly wireName: string | null;
  /** The tool description. */
  readonly description: string;
  /** The parameter schema, as the Pack gave it. */
  readonly parameters: JsonValue;
  /** Whether its output is structured (parsed as JSON for a script call). */
  readonly structured: boolean;
}

/** One Pack the run knows about, usable or not. */
export interface RunPack {
  /** The Pack id (`web`). */
  readonly id: string;
  /** The fully qualified name (`runvil/web`). */
  readonly fullName: string;
  /** Whether the prompt declares it under `uses:`. */
  readonly declared: boolean;
  /** Null when the Pack can serve the run; else the Host's reason, written for the model. */
  readonly unavailable: string | null;
}

/** A declared Pack's prelude, installed in every section VM in `uses:` order. */
export interface RunPrelude {
  /** The Pack id (`...` inside the prelude; its chunk name is `pack:{id}`). */
  readonly pack: string;
  /** The Lua source. */
  readonly source: string;
}

/** A catalog tool the Host dropped at prepare, reported as an event when the run starts. */
export interface DroppedTool {
  /** The tool id as the Pack gave it. */
  readonly tool: string;
  /** The Pack id of the Pack that contributed it. */
  readonly pack: string;
  /** Why, such as `a Pack's tool id escapes its Pack id; dropped`. */
  readonly reason: string;
}

/**
 * One model role of the prompt, bound at prepare to a catalog model (docs/design/models.md §3),
 * as the Engine sees it: data only, never the provider.
 */
export interface RunModelRole {
  /** The role label (`writer`). */
  readonly label: string;
  /** The catalog id it is bound to (`claude-sonnet-4-6`): `sys.model`, the rounds' `model`. */
  readonly model: string;
  /** The bound model's context window, in tokens (the context precheck's limit). */
  readonly contextWindow: number;
  /** The most tokens one reply of the bound model can hold. */
  readonly maxOutputTokens: number;
  /** Whether the bound model takes tool definitions. */
  readonly tools: boolean;
  /**
   * The bound model's prices (USD per million tokens), when its catalog entry gives them; a
   * round on a model without prices has an unknown cost (docs/design/cost.md).
   */
  readonly prices?: ModelPrices;
  /** The role's system text (`system:`), sent with every round of the role, when it has one. */
  readonly system?: string;
  /** The role's generation settings as a round sends them (`temperature?`, `maxOutputTokens?`, `stop?`). */
  readonly settings: ModelSettings;
  /** The round cap of one `models.loop` / `handle:loop` call on this role (`max_rounds`, default 20). */
  readonly maxRounds: number;
}

/**
 * What a prepared run knows of tools, Packs and models: the catalog (every tool `tools.call` can
 * reach, in tool id order), the Packs, the declared Packs' preludes, and the bound model roles.
 * Absent from RunOptions: an empty catalog, the declared Packs only, no preludes, no bound
 * roles.
 */
export interface RunCatalog {
  readonly tools: readonly CatalogTool[];
  /**
   * The Packs the run knows, usable or not. Null when the Host reports nothing: then Lua sees
   * the declared Packs plus every Pack that has a tool in the catalog.
   */
  readonly packs: readonly RunPack[] | null;
  readonly preludes: readonly RunPrelude[];
  readonly dropped: readonly DroppedTool[];
  /**
   * Every model role the prompt declares, bound, in `models:` order (a Host's prepare binds
   * every role or refuses the run). Empty for a prompt without roles.
   */
  readonly models: readonly RunModelRole[];
  /**
   * The Host's budget for the run (`runvil.config.json`'s `budget`), when it sets one; the
   * Engine applies it together with the prompt's own (the tighter limit wins,
   * docs/design/budgets.md).
   */
  readonly budget?: RunBudget;
}

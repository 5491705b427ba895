import { checkModelId, MODEL_ID_GRAMMAR } from "@runvil/names";
import {
  MODEL_SPECIFICATION_VERSION,
  type ModelInfo,
  type ModelPrices,
  type ModelProvider,
} from "@runvil/sdk";
import { HostSetupError } from "../host-setup-error";
import { typeName } from "./pack-checks";

/** One model of the Host's catalog: its facts, the provider that serves it, the plugin that added it. */
export interface CatalogModel {
  /** The model's facts, as its provider registered them (a frozen copy). */
  readonly info: ModelInfo;
  /** The provider that runs its rounds. */
  readonly provider: ModelProvider;
  /** The name of the plugin that added the provider. */
  readonly plugin: string;
}

/** A value for a message: strings quoted, everything else by its type (`got 0`, `got "x"`, `got null`). */
function shown(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return typeName(value);
}

function isWhole(value: unknown, min: number): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= min;
}

function isPrice(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0;
}

/** The checked, frozen copy of `prices`, or the problem with it. */
function checkPrices(value: unknown, at: string): ModelPrices | string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return `${at} must be an object of USD prices per million tokens, got ${typeName(value)}`;
  }
  const prices = value as Record<string, unknown>;
  for (const field of ["inputPerMillion", "outputPerMillion"] as const) {
    if (!isPrice(prices[field])) {
      return `${at}.${field} must be a number of at least 0, got ${shown(prices[field])}`;
    }
  }
  const cached = prices.cachedInputPerMillion;
  if (cached !== undefined && !isPrice(cached)) {
    return `${at}.cachedInputPerMillion must be a number of at least 0, got ${shown(cached)}`;
  }
  return Object.freeze({
    inputPerMillion: prices.inputPerMillion as number,
    outputPerMillion: prices.outputPerMillion as number,
    ...(cached === undefined ? {} : { cachedInputPerMillion: cached }),
  });
}

/** The checked, frozen copy of one registered model's facts, or the problem with them. */
function checkModelInfo(value: unknown, at: string): ModelInfo | string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return `${at} must be a model's facts ({ id, contextWindow, maxOutputTokens, tools }), got ${typeName(value)}`;
  }
  const info = value as Record<string, unknown>;
  const { id, contextWindow, maxOutputTokens, tools } = info;
  if (typeof id !== "string" || !checkModelId(id).ok) {
    return `${at}.id must be a catalog model id (${MODEL_ID_GRAMMAR}), got ${shown(id)}`;
  }
  if (!isWhole(contextWindow, 1)) {
    return `${at}.contextWindow must be a whole number of at least 1, got ${shown(contextWindow)}`;
  }
  if (!isWhole(maxOutputTokens, 1) || maxOutputTokens > contextWindow) {
    return `${at}.maxOutputTokens must be a whole number from 1 to its contextWindow (${contextWindow}), got ${shown(maxOutputTokens)}`;
  }
  if (typeof tools !== "boolean") return `${at}.tools must be a boolean, got ${typeName(tools)}`;
  let prices: ModelPrices | undefined;
  if (info.prices !== undefined) {
    const checked = checkPrices(info.prices, `${at}.prices`);
    if (typeof checked === "string") return checked;
    prices = checked;
  }
  return Object.freeze({
    id,
    contextWindow,
    maxOutputTokens,
    tools,
    ...(prices === undefined ? {} : { prices }),
  });
}

/** The version part of the refusal of a provider of another contract version. */
function versionText(version: unknown): string {
  return version === undefined
    ? "names no specification version"
    : `speaks specification version ${shown(version)}`;
}

/**
 * The Host's model catalog: every model registered by plugins' providers, by catalog id, in
 * registration order (docs/design/models.md §2).
 */
export class ModelCatalog {
  readonly #models = new Map<string, CatalogModel>();
  readonly #providers: ModelProvider[] = [];

  /** Every catalog model by id, in registration order. */
  get models(): ReadonlyMap<string, CatalogModel> {
    return this.#models;
  }

  /** Every provider added, in order. */
  get providers(): readonly ModelProvider[] {
    return this.#providers;
  }

  /**
   * Adds `provider` from `plugin` with its models, or throws a HostSetupError
   * `plugin {plugin}: {problem}` and adds nothing: a value that is not a provider, another
   * specification version, a malformed model (`model provider {name}: models[{i}].{field} ...`),
   * or a catalog id another provider (or this one) already serves.
   */
  add(plugin: string, provider: unknown): void {
    if (typeof provider !== "object" || provider === null || Array.isArray(provider)) {
      throw new HostSetupError(
        plugin,
        `addModelProvider needs a model provider (specificationVersion ${MODEL_SPECIFICATION_VERSION}, a string name, a models array and a round function), got ${typeName(provider)}`,
      );
    }
    const candidate = provider as Partial<Record<keyof ModelProvider, unknown>>;
    if (candidate.specificationVersion !== MODEL_SPECIFICATION_VERSION) {
      throw new HostSetupError(
        plugin,
        `a model provider ${versionText(candidate.specificationVersion)}; this Host speaks ${MODEL_SPECIFICATION_VERSION}`,
      );
    }
    const { name, models, round } = candidate;
    if (typeof name !== "string" || name === "") {
      throw new HostSetupError(
        plugin,
        `a model provider needs a name (a non-empty string), got ${shown(name)}`,
      );
    }
    if (typeof round !== "function") {
      throw new HostSetupError(
        plugin,
        `model provider ${name}: round must be a function, got ${typeName(round)}`,
      );
    }
    if (!Array.isArray(models)) {
      throw new HostSetupError(
        plugin,
        `model provider ${name}: models must be an array of models, got ${typeName(models)}`,
      );
    }
    const added = new Map<string, ModelInfo>();
    for (const [index, value] of (models as unknown[]).entries()) {
      const info = checkModelInfo(value, `models[${index}]`);
      if (typeof info === "string")
        throw new HostSetupError(plugin, `model provider ${name}: ${info}`);
      if (added.has(info.id)) {
        throw new HostSetupError(plugin, `model provider ${name} lists model ${info.id} twice`);
      }
      const earlier = this.#models.get(info.id);
      if (earlier !== undefined) {
        throw new HostSetupError(
          plugin,
          `model ${info.id} is served by providers ${earlier.provider.name} and ${name}; a catalog id names one model`,
        );
      }
      added.set(info.id, info);
    }
    const checked = provider as ModelProvider;
    this.#providers.push(checked);
    for (const info of added.values()) {
      this.#models.set(info.id, Object.freeze({ info, provider: checked, plugin }));
    }
  }
}

import type { RunModelRole } from "@runvil/protocol";
import type { ModelProvider, ModelSettings } from "@runvil/sdk";
import type { CatalogModel } from "../setup/model-catalog";
import { modelRoleLine } from "./requirements-notice";

/** The checked settings of a role, as the parser's `RoleSettings` holds them (docs/design/models.md §1). */
export interface RoleSettingsRequirement {
  /** The catalog ids the role wants, most wanted first; empty for the Host's default. */
  readonly model: readonly string[];
  /** The system text of every round of the role. */
  readonly system?: string;
  /** Sampling temperature, 0 to 2. */
  readonly temperature?: number;
  /** The cap on one reply. */
  readonly maxOutputTokens?: number;
  /** Stop sequences; empty for none. */
  readonly stop: readonly string[];
  /** The round cap of one `models.loop` call. */
  readonly maxRounds: number;
}

/** What binding reads of one declared role. A parsed prompt's `ModelRoleDeclaration` fits. */
export interface ModelRoleRequirement {
  /** The role label. */
  readonly label: string;
  /** The role's checked settings. */
  readonly settings: RoleSettingsRequirement;
}

/**
 * Which rule bound a role: an override for its label (`runvil run --model`, a scenario's
 * `models.bind`), its own `model:` list, the Host's default model, or the catalog's only model.
 */
export type BindingSource = "override" | "model" | "default" | "only";

/** One bound role of a prepared run, with where its binding came from (for `runvil check`). */
export interface PreparedModelRole extends RunModelRole {
  /** The name of the provider that serves the bound model. */
  readonly provider: string;
  /** Which rule bound it. */
  readonly from: BindingSource;
}

/** What binding is given besides the roles. */
export interface BindingInputs {
  /** The Host's catalog, by id. */
  readonly catalog: ReadonlyMap<string, CatalogModel>;
  /** Catalog ids by role label, overriding the roles' own choices. */
  readonly overrides: Readonly<Record<string, string>>;
  /** The Host's default model, when it has one. */
  readonly defaultModel: string | undefined;
}

/** Every role bound, or the notice lines of those that cannot be. */
export type BindingResult =
  | {
      readonly ok: true;
      readonly roles: readonly PreparedModelRole[];
      /** The provider of every bound catalog id. */
      readonly providers: ReadonlyMap<string, ModelProvider>;
    }
  | { readonly ok: false; readonly lines: readonly string[] };

type Choice = { ok: true; id: string; from: BindingSource } | { ok: false; reason: string };

function notInCatalog(id: string): string {
  return `\`${id}\` is not in this host's model catalog`;
}

function choose(role: ModelRoleRequirement, inputs: BindingInputs): Choice {
  const { catalog, overrides, defaultModel } = inputs;
  if (Object.hasOwn(overrides, role.label)) {
    const id = overrides[role.label] as string;
    return catalog.has(id)
      ? { ok: true, id, from: "override" }
      : { ok: false, reason: notInCatalog(id) };
  }
  const wanted = role.settings.model;
  if (wanted.length > 0) {
    const id = wanted.find((candidate) => catalog.has(candidate));
    if (id !== undefined) return { ok: true, id, from: "model" };
    if (wanted.length === 1) return { ok: false, reason: notInCatalog(wanted[0] as string) };
    const listed = wanted.map((candidate) => `\`${candidate}\``).join(", ");
    return { ok: false, reason: `none of ${listed} is in this host's model catalog` };
  }
  if (defaultModel !== undefined) {
    return catalog.has(defaultModel)
      ? { ok: true, id: defaultModel, from: "default" }
      : { ok: false, reason: notInCatalog(defaultModel) };
  }
  if (catalog.size === 1) {
    const [only] = catalog.keys();
    return { ok: true, id: only as string, from: "only" };
  }
  return {
    ok: false,
    reason: `it names no model, and this host has no default model; set model: under models.${role.label}`,
  };
}

/** The Engine's view of a bound role (`RunCatalog.models`): its data, without the provider. */
export function runModelRole(role: PreparedModelRole): RunModelRole {
  const { provider: _provider, from: _from, ...data } = role;
  return data;
}

function runRole(role: ModelRoleRequirement, model: CatalogModel): RunModelRole {
  const { settings } = role;
  const generation: ModelSettings = {
    ...(settings.temperature === undefined ? {} : { temperature: settings.temperature }),
    ...(settings.maxOutputTokens === undefined
      ? {}
      : { maxOutputTokens: settings.maxOutputTokens }),
    ...(settings.stop.length === 0 ? {} : { stop: [...settings.stop] }),
  };
  return {
    label: role.label,
    model: model.info.id,
    contextWindow: model.info.contextWindow,
    maxOutputTokens: model.info.maxOutputTokens,
    tools: model.info.tools,
    ...(model.info.prices === undefined ? {} : { prices: model.info.prices }),
    ...(settings.system === undefined ? {} : { system: settings.system }),
    settings: generation,
    maxRounds: settings.maxRounds,
  };
}

/**
 * Binds every role, in `models:` order (docs/design/models.md §3). For each role the first rule
 * that applies picks a catalog id: an override for its label; its `model:` list (the first id
 * the catalog has); the Host's default model; the catalog's only model. Then the role's
 * `max_output_tokens` must not exceed what the model can write. A role that does not bind is
 * one notice line `- model role {label} cannot be bound: {reason}`; with an empty catalog each
 * reason adds `; this host has no model provider`. Overrides for labels the prompt does not
 * declare are ignored.
 */
export function bindModels(
  roles: readonly ModelRoleRequirement[],
  inputs: BindingInputs,
): BindingResult {
  const lines: string[] = [];
  const bound: PreparedModelRole[] = [];
  const providers = new Map<string, ModelProvider>();
  const noProvider = inputs.catalog.size === 0 ? "; this host has no model provider" : "";
  for (const role of roles) {
    const choice = choose(role, inputs);
    if (!choice.ok) {
      lines.push(modelRoleLine(role.label, choice.reason + noProvider));
      continue;
    }
    const model = inputs.catalog.get(choice.id) as CatalogModel;
    const cap = role.settings.maxOutputTokens;
    if (cap !== undefined && cap > model.info.maxOutputTokens) {
      const reason = `max_output_tokens ${cap} is over the ${model.info.maxOutputTokens} tokens ${model.info.id} can write`;
      lines.push(modelRoleLine(role.label, reason));
      continue;
    }
    bound.push({ ...runRole(role, model), provider: model.provider.name, from: choice.from });
    providers.set(model.info.id, model.provider);
  }
  return lines.length > 0 ? { ok: false, lines } : { ok: true, roles: bound, providers };
}

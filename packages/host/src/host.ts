import type { RunBudget } from "@runvil/protocol";
import type { ModelProvider, Services } from "@runvil/sdk";
import type { HostOptions, PrepareRunOptions } from "./host-options";
import { type PromptRequirements, prepareRun } from "./prepare/prepare-run";
import type { PrepareResult } from "./prepare/prepared-run";
import { ServiceMap } from "./service-map";
import { closePacks } from "./setup/close-packs";
import type { CatalogModel } from "./setup/model-catalog";
import { type HostDroppedTool, PackRegistry } from "./setup/pack-registry";
import { runPlugins } from "./setup/run-plugins";
import { startPacks } from "./setup/start-packs";

/** A Pack in the Host's registry, as `host.packs` lists it. */
export interface HostPack {
  /** The fully qualified name (`runvil/web`). */
  readonly fullName: string;
  /** The vendor segment (`runvil`). */
  readonly vendor: string;
  /** The Pack id (`web`). */
  readonly id: string;
  /** The Pack's description. */
  readonly description: string;
  /** The name of the plugin that added it. */
  readonly plugin: string;
  /** The service ids it needs. */
  readonly services: readonly string[];
  /** The ids of the tools it kept (dropped ones are in `host.dropped`), sorted. */
  readonly tools: readonly string[];
  /** Whether it has a Lua prelude. */
  readonly hasPrelude: boolean;
  /** Why it cannot serve any run (its `start()` threw), or null when it started. */
  readonly startFailure: string | null;
}

/**
 * A Host: the plugins' Packs (built once, shared by every run), services and model providers,
 * and `prepare`, which turns a prompt's `uses:` into a run's catalog or a requirements notice.
 */
export interface Host {
  /** Every registered Pack, in the order the plugins added them. */
  readonly packs: readonly HostPack[];
  /** Every tool dropped at setup (a malformed id, an id that escapes its Pack id, ...). */
  readonly dropped: readonly HostDroppedTool[];
  /** The services every run gets (plugins' services with `HostOptions.services` over them). */
  readonly services: Services;
  /** The model providers plugins added, in order. */
  readonly modelProviders: readonly ModelProvider[];
  /** The model catalog: every model the providers registered, by catalog id, in registration order. */
  readonly models: ReadonlyMap<string, CatalogModel>;
  /** The catalog id roles without `model:` are bound to (HostOptions.defaultModel), if any. */
  readonly defaultModel: string | undefined;
  /** The budget every run's catalog carries (HostOptions.budget), if any. */
  readonly budget: RunBudget | undefined;
  /**
   * Prepares one run: `{ ok: true, run }` with the run's catalog, tools, services, Packs and
   * bound model roles, or `{ ok: false, notice }` with the requirements notice (run error kind
   * RequirementsUnmet). `run.services` overlay the Host's services for this run only;
   * `run.models` binds roles by label, over their own `model:`.
   */
  prepare(prompt: PromptRequirements, run?: PrepareRunOptions): PrepareResult;
  /**
   * Closes the Host: every Pack's `close()` is called (all at once) and awaited, so the servers
   * and connections Packs hold end with the Host. Resolves when every close has settled (a close
   * that throws is ignored); a second call resolves with the first. After it, `prepare` throws.
   */
  close(): Promise<void>;
}

/** The message of `prepare` on a closed Host. */
export const HOST_CLOSED_MESSAGE = "the Host is closed; create a new Host to prepare runs";

/**
 * Creates a Host: calls every plugin's setup in order (each gets a PluginApi to add Packs,
 * provide services and add model providers), freezes the Pack registry, then builds every Pack
 * (`start()`; one that throws is unavailable to every run, with the error's message as its
 * reason). Close the Host with `host.close()` when done with it. Rejects with a HostSetupError naming the plugin for an invalid plugin, a failed
 * setup, an invalid Pack vendor, name or shape, a fully qualified name added twice, a
 * service id provided twice, or a model provider the catalog refuses (another specification
 * version, malformed model facts, a catalog id two providers serve); the Packs registered
 * before the failure are closed first.
 */
export async function createHost(options: HostOptions): Promise<Host> {
  const registry = new PackRegistry();
  let results: Awaited<ReturnType<typeof runPlugins>>;
  try {
    results = await runPlugins(options.plugins, registry);
  } catch (error) {
    await closePacks(registry.packs);
    throw error;
  }
  await startPacks(registry.packs);
  const services = new ServiceMap(results.services).with(options.services);
  const packs: HostPack[] = registry.packs.map((pack) => ({
    fullName: pack.fullName,
    vendor: pack.vendor,
    id: pack.id,
    description: pack.definition.description,
    plugin: pack.plugin,
    services: pack.services,
    tools: pack.tools.map((tool) => tool.id),
    hasPrelude: pack.definition.prelude !== undefined,
    startFailure: pack.startFailure,
  }));
  const catalog = results.models.models;
  const defaultModel = options.defaultModel;
  const budget = options.budget;
  let closing: Promise<void> | undefined;
  return {
    packs,
    dropped: registry.dropped,
    services,
    modelProviders: [...results.models.providers],
    models: catalog,
    defaultModel,
    budget,
    prepare: (prompt, run = {}) => {
      if (closing !== undefined) throw new Error(HOST_CLOSED_MESSAGE);
      return withBudget(
        prepareRun(prompt, registry, services.with(run.services), {
          catalog,
          overrides: run.models ?? {},
          defaultModel,
        }),
        budget,
      );
    },
    close: () => {
      closing ??= closePacks(registry.packs);
      return closing;
    },
  };
}

/** A prepared run whose catalog carries the Host's budget, when it has one. */
function withBudget(result: PrepareResult, budget: RunBudget | undefined): PrepareResult {
  if (!result.ok || budget === undefined) return result;
  return { ok: true, run: { ...result.run, catalog: { ...result.run.catalog, budget } } };
}

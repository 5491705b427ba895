import type { RunModelRole } from "@runvil/protocol";
import type { RunContext } from "../run/run-context";

/** A model role of the prompt: its label and, when the run bound it, its binding. */
export interface ModelRole {
  /** The role label (`writer`). */
  readonly label: string;
  /** The bound catalog model and the role's settings; undefined when the run bound none. */
  readonly binding: RunModelRole | undefined;
}

/**
 * What one run knows of model roles (docs/design/models.md §3, §6): the roles the prompt
 * declares under `models:`, in that order, each with the binding the Host made at prepare, and
 * the prompt-wide default that `models.default` sets in the H1 pass.
 */
export class RunModels {
  /** The declared role labels, in `models:` order. */
  readonly labels: readonly string[];
  /** The prompt-wide default role, or null until the H1 pass sets one. */
  defaultRole: string | null = null;
  private readonly roles: ReadonlyMap<string, ModelRole>;

  constructor(labels: readonly string[], bindings: readonly RunModelRole[]) {
    this.labels = labels;
    const bound = new Map(bindings.map((binding) => [binding.label, binding]));
    this.roles = new Map(labels.map((label) => [label, { label, binding: bound.get(label) }]));
  }

  /** The declared role with this label, if any. */
  role(label: string): ModelRole | undefined {
    return this.roles.get(label);
  }
}

const byRun = new WeakMap<RunContext, RunModels>();

/** The run's RunModels, built at first use from the prompt's roles and the run's bindings. */
export function runModelsOf(ctx: RunContext): RunModels {
  let models = byRun.get(ctx);
  if (models === undefined) {
    models = new RunModels(
      ctx.prompt.frontmatter.models.map((role) => role.label),
      ctx.options.catalog.models,
    );
    byRun.set(ctx, models);
  }
  return models;
}

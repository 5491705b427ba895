import type { BindingSource, PreparedModelRole } from "@runvil/host";

/** One role's binding in the `runvil check --json` report. */
export interface BindingJson {
  /** The role label. */
  role: string;
  /** The catalog id it is bound to. */
  model: string;
  /** The name of the provider that serves the model. */
  provider: string;
  /** Which rule bound it: `override`, `model` (its own list), `default` (the Host's), `only` (the catalog's one model). */
  from: BindingSource;
}

/**
 * The outline lines of a prepared run's bindings, one per role:
 * `  model writer: claude-sonnet-4-6 (provider anthropic, 200000-token context, tools)`
 * (`no tools` for a model that takes none).
 */
export function bindingLines(models: readonly PreparedModelRole[]): string[] {
  return models.map(
    (role) =>
      `  model ${role.label}: ${role.model} (provider ${role.provider}, ${role.contextWindow}-token context, ${role.tools ? "tools" : "no tools"})`,
  );
}

/** The bindings of a prepared run for the JSON report, in `models:` order. */
export function bindingsJson(models: readonly PreparedModelRole[]): BindingJson[] {
  return models.map((role) => ({
    role: role.label,
    model: role.model,
    provider: role.provider,
    from: role.from,
  }));
}

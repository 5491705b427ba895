import type { RunContext } from "../run/run-context";
import { runModelsOf } from "./run-models";

/** Reports each role prepare bound (`model_role_bound`), in `models:` order, as the run starts. */
export function reportBoundRoles(ctx: RunContext): void {
  const source = { chain: "0", entry: null, section: ctx.prompt.title.title };
  const run = runModelsOf(ctx);
  for (const label of run.labels) {
    const binding = run.role(label)?.binding;
    if (binding !== undefined)
      ctx.emit(source, "model_role_bound", { role: label, model: binding.model });
  }
}

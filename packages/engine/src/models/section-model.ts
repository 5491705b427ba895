import type { Entry } from "../walk/entry";
import { type ModelRole, runModelsOf } from "./run-models";

/**
 * The section's model (docs/design/models.md §6): the entry's own latest `models.use` choice,
 * else the prompt-wide default as it stood when the entry began (the H1 entry follows its own
 * `models.default` at once). Undefined when there is neither.
 */
export function sectionRole(entry: Entry): ModelRole | undefined {
  const run = runModelsOf(entry.ctx);
  const label = entry.models.choice ?? (entry.isH1 ? run.defaultRole : entry.models.defaultAtStart);
  return label === null ? undefined : run.role(label);
}

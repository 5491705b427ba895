import type { Entry } from "../walk/entry";
import { sectionRole } from "./section-model";

/**
 * The hook every bound or local tool call runs as it is dispatched (lua chapter, "The bound
 * model in sys.model"): the section's first such call fixes `sys.model` to the catalog id of
 * the section's model when the section has one then, and later calls change nothing. Task
 * built-ins and refused calls never reach it.
 */
export function noteToolCall(entry: Entry): void {
  const models = entry.models;
  if (models.toolCalled) return;
  models.toolCalled = true;
  const binding = sectionRole(entry)?.binding;
  if (binding !== undefined) entry.sys?.setModel(binding.model);
}

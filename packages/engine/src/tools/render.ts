import { isOfferableWireName, isTaskBuiltinName } from "@runvil/names";
import { isJsonObject, type JsonObject } from "@runvil/sdk";
import { argumentError } from "../lua";
import type { Entry } from "../walk/entry";
import { runToolsOf } from "./run-tools";
import type { RenderedTool, RenderedToolList } from "./tool-scope";

/**
 * Renders the section's tool list for its first models.loop round (tools chapter, "When an
 * offer takes effect", "Repeated offers and the order the model sees") and fixes it: from then
 * on tools.offer, packs.offer and tools.offer_local refuse, and every later round gets the same
 * list (a later call returns it unchanged).
 *
 * Order: the tools.offer tools by wire name in first-offer order, then each packs.offer Pack's
 * tools (Packs in first-offer order, tools in id order, each tool once), then the local tools
 * in definition order. A local tool whose alias is an offered tool's wire name shadows that
 * tool (the catalog tool is dropped; the local tool keeps its own place); a local tool under a
 * task built-in's name is never advertised. `taskBuiltins` is true once tools.allow_tasks ran:
 * the loop then lists task, task_cancel, task_status and await_tasks after these tools.
 *
 * Reports `tool_scope_validation_started` and then `_succeeded` (or `_failed`, leaving the list
 * unrendered and raising a lua error, when a tool has no offerable name or its schema is not a
 * JSON object).
 */
export function renderSectionTools(entry: Entry): RenderedToolList {
  const scope = entry.tools;
  if (scope.rendered !== null) return scope.rendered;
  const { ctx, source } = entry;
  ctx.emit(source, "tool_scope_validation_started", {});
  const run = runToolsOf(ctx);
  const localNames = new Set(scope.locals.keys());
  const tools: RenderedTool[] = [];
  for (const id of scope.scopeToolIds(run)) {
    const tool = run.offered(id);
    if (tool === undefined || tool.wireName === null || localNames.has(tool.wireName)) continue;
    tools.push({
      name: tool.wireName,
      description: tool.description,
      parameters: tool.parameters as JsonObject,
      tool: tool.id,
    });
  }
  for (const local of scope.locals.values()) {
    if (isTaskBuiltinName(local.alias)) continue;
    tools.push({
      name: local.alias,
      description: local.description,
      parameters: local.parameters,
      tool: null,
    });
  }
  const refused = tools.find(
    (tool) => !isOfferableWireName(tool.name) || !isJsonObject(tool.parameters),
  );
  if (refused !== undefined) {
    const message = `the tool ${JSON.stringify(refused.name)} cannot be offered to a model`;
    ctx.emit(source, "tool_scope_validation_failed", { message });
    throw argumentError(message);
  }
  const rendered: RenderedToolList = { tools, taskBuiltins: scope.allowlist !== null };
  scope.rendered = rendered;
  ctx.emit(source, "tool_scope_validation_succeeded", { tools: tools.length });
  return rendered;
}

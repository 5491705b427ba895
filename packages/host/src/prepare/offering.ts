import { isOfferableWireName, isTaskBuiltinName, toWireName } from "@runvil/names";
import type { CatalogTool } from "@runvil/protocol";
import { isJsonObject, type ToolDefinition } from "@runvil/sdk";

/**
 * The catalog entries of tools already sorted by id, with their wire names: null for a tool
 * the offering cannot hold (its wire name is a task built-in's or not offerable, its
 * parameters are not a JSON object, or an earlier offered tool already holds its wire name).
 */
export function catalogTools(
  tools: readonly { readonly pack: string; readonly definition: ToolDefinition }[],
): CatalogTool[] {
  const held = new Set<string>();
  return tools.map(({ pack, definition }) => {
    const wire = toWireName(definition.id);
    const offerable =
      !isTaskBuiltinName(wire) &&
      isOfferableWireName(wire) &&
      isJsonObject(definition.parameters) &&
      !held.has(wire);
    if (offerable) held.add(wire);
    return {
      id: definition.id,
      pack,
      wireName: offerable ? wire : null,
      description: definition.description,
      parameters: definition.parameters,
      structured: definition.output === "structured",
    };
  });
}

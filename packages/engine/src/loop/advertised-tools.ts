import type { CatalogTool } from "@runvil/protocol";
import type { ModelTool } from "@runvil/sdk";
import type { RunTools } from "../tools/run-tools";
import type { RenderedTool, RenderedToolList } from "../tools/tool-scope";

/** Where a model call to an advertised name goes (docs/design/loop.md §4.5). */
export type CallRoute =
  | { readonly kind: "catalog"; readonly tool: CatalogTool }
  | { readonly kind: "local" }
  | { readonly kind: "builtin" };

/**
 * What every loop round of a section advertises (docs/design/loop.md §2): the rendered list,
 * then the task built-ins when the render found the allowlist set, as the ModelTools a round
 * sends (the same objects every round, so their token estimates are computed once), with each
 * name's route and the names in order (the out_of_scope_tool message lists them).
 */
export interface AdvertisedTools {
  /** The advertised names, in the model's order. */
  readonly names: readonly string[];
  /** The tool definitions every round sends, in order; empty for none. */
  readonly tools: readonly ModelTool[];
  /** Where a call to `name` goes, or undefined when the rounds do not advertise it. */
  route(name: string): CallRoute | undefined;
}

const LOCAL: CallRoute = { kind: "local" };
const BUILTIN: CallRoute = { kind: "builtin" };

function modelTool(tool: RenderedTool): ModelTool {
  return { name: tool.name, description: tool.description, parameters: tool.parameters };
}

const cache = new WeakMap<RenderedToolList, AdvertisedTools>();

/**
 * The advertised tools of a section's rendered list, built once per list. `builtins` are the
 * task built-ins' definitions, given when `rendered.taskBuiltins` is set. The resolution order
 * of the chapter (built-ins, then local tools, then wire names) needs no ranking here: the
 * render never lists a local tool under a built-in's name, the offering never holds a catalog
 * tool whose wire name is one, and a local tool that shadows a wire name replaces that tool.
 */
export function advertisedTools(
  run: RunTools,
  rendered: RenderedToolList,
  builtins: readonly RenderedTool[],
): AdvertisedTools {
  const known = cache.get(rendered);
  if (known !== undefined) return known;
  const routes = new Map<string, CallRoute>();
  const tools: ModelTool[] = [];
  for (const tool of rendered.tools) {
    const catalog = tool.tool === null ? undefined : run.offered(tool.tool);
    if (tool.tool !== null && catalog === undefined) {
      throw new Error(
        `the rendered tool ${tool.name} names ${tool.tool}, which the run does not offer`,
      );
    }
    routes.set(tool.name, catalog === undefined ? LOCAL : { kind: "catalog", tool: catalog });
    tools.push(modelTool(tool));
  }
  if (rendered.taskBuiltins) {
    for (const tool of builtins) {
      routes.set(tool.name, BUILTIN);
      tools.push(modelTool(tool));
    }
  }
  const advertised: AdvertisedTools = {
    names: tools.map((tool) => tool.name),
    tools,
    route: (name) => routes.get(name),
  };
  cache.set(rendered, advertised);
  return advertised;
}

import type { CatalogTool, RunModelRole } from "@runvil/protocol";
import {
  type ModelRun,
  type ModelRunOptions,
  modelPrompt,
  runModelPrompt,
  succeeded,
} from "../models/test-support/model-run";
import { boundRole, type ScenarioReply } from "../models/test-support/scripted-rounds";
import { packOfTool, RunTools } from "../tools/run-tools";
import type { RenderedTool, RenderedToolList } from "../tools/tool-scope";

/** A plain catalog tool whose wire name is its id with `/` and `.` turned into `_`. */
export function catalogTool(id: string): CatalogTool {
  return {
    id,
    pack: packOfTool(id),
    wireName: id.replace(/[/.]/g, "_"),
    description: `${id} tool`,
    parameters: { type: "object", properties: {} },
    structured: false,
  };
}

/** A run offering web/search, web/fetch and user-input/ask. */
export function webRun(): RunTools {
  return new RunTools(
    {
      tools: [catalogTool("web/search"), catalogTool("web/fetch"), catalogTool("user-input/ask")],
      packs: null,
      preludes: [],
      dropped: [],
      models: [],
    },
    ["web"],
  );
}

/** A rendered tool: a catalog tool's (by id) or a local tool's (`tool` null). */
export function rendered(name: string, tool: string | null): RenderedTool {
  return {
    name,
    description: `${name} description`,
    parameters: { type: "object", properties: {} },
    tool,
  };
}

/** A rendered list of these tools. */
export function renderedList(
  tools: readonly RenderedTool[],
  taskBuiltins = false,
): RenderedToolList {
  return { tools, taskBuiltins };
}

/** The four built-ins' definitions, as the tasks area would give them. */
export const BUILTINS: readonly RenderedTool[] = [
  "task",
  "task_cancel",
  "task_status",
  "await_tasks",
].map((name) => rendered(name, null));

/** A reply that calls `grab` with these values, as calls c1, c2, … */
export function grabs(...values: string[]): ScenarioReply {
  return {
    tool_calls: values.map((value, i) => ({ id: `c${i + 1}`, name: "grab", arguments: { value } })),
  };
}

/** The `grab` local tool, returning `grabbed {value}`. */
export const GRAB = `tools.offer_local('grab', 'Grab a value', { value = 'string' }, function(args)
  return 'grabbed ' .. args.value
end)`;

/** Options of a loop test: the replies, the roles' overrides, the run's other options. */
export interface LoopTestOptions extends Omit<ModelRunOptions, "models"> {
  readonly replies?: readonly ScenarioReply[];
  /** Overrides of the `writer` role's binding (context window, max rounds, tools). */
  readonly writer?: Partial<RunModelRole>;
  /** The `models:` lines (default one `writer` role). */
  readonly declare?: string;
}

/** Runs `lua` as `## Main` with scripted replies; the run and its port. */
export function runLoop(lua: string, options: LoopTestOptions = {}): Promise<ModelRun> {
  const { replies = [], writer, declare, ...rest } = options;
  return runModelPrompt(modelPrompt(lua, declare === undefined ? {} : { roles: declare }), {
    ...rest,
    models: { replies },
    ...(writer === undefined ? {} : { roles: [boundRole("writer", writer)] }),
  });
}

/** The result text of `lua` run as `## Main`; throws when the run did not succeed. */
export async function loopResult(
  lua: string,
  options: LoopTestOptions = {},
): Promise<string | null> {
  return succeeded(await runLoop(lua, options));
}

/**
 * `kind|message` of the error `lua` raises, caught with pcall, the number of model requests,
 * and the run.
 */
export async function loopRefusal(
  lua: string,
  options: LoopTestOptions = {},
): Promise<{ readonly text: string | null; readonly rounds: number; readonly run: ModelRun }> {
  const run = await runLoop(
    `local ok, err = pcall(function()\n${lua}\nend)\nassert(not ok, 'no error')\nreturn (type(err) == 'table' and tostring(err.kind) or type(err)) .. '|' .. tostring(err)`,
    options,
  );
  return { text: succeeded(run), rounds: run.port.modelRequests.length, run };
}

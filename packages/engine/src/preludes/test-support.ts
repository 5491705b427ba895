import { promptText } from "../test-support/parse";
import { runTestPrompt, type TestRun, type TestRunOptions } from "../test-support/run-prompt";
import type { RunCatalog, RunPrelude } from "../tools/run-catalog";
import { type ScenarioCatalog, scenarioCatalog } from "../tools/test-support/scenario-host";
import { type OperatorAnswer, ToolPort } from "../tools/test-support/tool-port";

/** The user-input Pack's prelude, as tools.txt "Pack preludes" prints it. */
export const USER_INPUT_PRELUDE = `local pack = ...
input = {}
function input.ask(...)
  if select('#', ...) > 0 then
    error("input.ask takes no arguments", 2)
  end
  return tools.call(pack .. "/ask")
end
`;

/** The scenario Host prelude cases run on: the official Packs, every service. */
export const PRELUDE_HOST: ScenarioCatalog = scenarioCatalog({}, []);

/** The Host's run catalog with `preludes` (Pack id → source, in order). */
export function catalogWith(preludes: Readonly<Record<string, string>>): RunCatalog {
  const list: RunPrelude[] = Object.entries(preludes).map(([pack, source]) => ({ pack, source }));
  return { ...PRELUDE_HOST.catalog, preludes: list };
}

/** A case: the prompt body (from the `# Title` on) and its frontmatter lines. */
export interface PreludeCase {
  readonly body: string;
  readonly frontmatter?: string;
  /** Pack id → prelude source, in `uses:` order. */
  readonly preludes: Readonly<Record<string, string>>;
  readonly operator?: readonly OperatorAnswer[];
  readonly pages?: Readonly<Record<string, string>>;
  readonly files?: Readonly<Record<string, string>>;
  readonly options?: Omit<TestRunOptions, "catalog" | "port" | "files">;
  /** Called before each store operation (see MemoryPort.beforeStoreOp). */
  readonly beforeStoreOp?: ToolPort["beforeStoreOp"];
}

/** Runs a case on a ToolPort over {@link PRELUDE_HOST}; the port is `run.port`. */
export async function runPreludeCase(
  c: PreludeCase,
): Promise<TestRun & { readonly port: ToolPort }> {
  const port = new ToolPort(PRELUDE_HOST, {
    ...(c.files === undefined ? {} : { files: c.files }),
    ...(c.operator === undefined ? {} : { operator: c.operator }),
    ...(c.pages === undefined ? {} : { web: { pages: c.pages } }),
  });
  port.beforeStoreOp = c.beforeStoreOp;
  const run = await runTestPrompt(promptText(c.body, c.frontmatter ?? ""), {
    ...c.options,
    catalog: catalogWith(c.preludes),
    port,
  });
  return { ...run, port };
}

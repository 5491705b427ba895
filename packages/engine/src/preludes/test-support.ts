import type { PreparedRun } from "@runvil/host";
import { userInputPack } from "@runvil/plugin-user-input";
import type { RunCatalog, RunPrelude } from "@runvil/protocol";
import { promptText } from "../test-support/parse";
import { runTestPrompt, type TestRun, type TestRunOptions } from "../test-support/run-prompt";
import {
  type OperatorAnswer,
  prepareScenario,
  type ScenarioSetup,
} from "../tools/test-support/scenario-host";
import { ToolPort } from "../tools/test-support/tool-port";

/** The user-input Pack's prelude, as tools.txt "Pack preludes" prints it (the Pack's own). */
export const USER_INPUT_PRELUDE: string = (() => {
  if (userInputPack.prelude === undefined) throw new Error("the user-input Pack has no prelude");
  return userInputPack.prelude;
})();

/**
 * The run prelude cases run on: the scenario Host (the official Packs, every service) prepared
 * for a prompt that declares nothing, so the Packs' own preludes stay out and each case's
 * preludes stand in for the declared Packs' ({@link catalogWith}).
 */
export function preparePreludeHost(setup: Omit<ScenarioSetup, "host"> = {}): Promise<PreparedRun> {
  return prepareScenario({ frontmatter: { uses: [], models: [] } }, setup);
}

/** The prepared run's catalog with `preludes` (Pack id → source, in order). */
export function catalogWith(
  run: PreparedRun,
  preludes: Readonly<Record<string, string>>,
): RunCatalog {
  const list: RunPrelude[] = Object.entries(preludes).map(([pack, source]) => ({ pack, source }));
  return { ...run.catalog, preludes: list };
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

/** Runs a case on a ToolPort over {@link preparePreludeHost}; the port is `run.port`. */
export async function runPreludeCase(
  c: PreludeCase,
): Promise<TestRun & { readonly port: ToolPort }> {
  const prepared = await preparePreludeHost({
    ...(c.operator === undefined ? {} : { operator: c.operator }),
    ...(c.pages === undefined ? {} : { web: { pages: c.pages } }),
  });
  const port = new ToolPort(prepared, c.files === undefined ? {} : { files: c.files });
  port.beforeStoreOp = c.beforeStoreOp;
  const run = await runTestPrompt(promptText(c.body, c.frontmatter ?? ""), {
    ...c.options,
    catalog: catalogWith(prepared, c.preludes),
    port,
  });
  return { ...run, port };
}

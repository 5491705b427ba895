import type { RunCatalog } from "@runvil/protocol";
import { setupSectionVm } from "../../globals/section-setup";
import { type LuaValue, type LuaVm, loadLuaRuntime, loadLuaVmFactory } from "../../lua";
import { RunContext } from "../../run/run-context";
import { resolveRunOptions } from "../../run/run-options";
import { Scope } from "../../scope/scope";
import { parseForTest } from "../../test-support/parse";
import { Chain } from "../../walk/chain";
import { Entry } from "../../walk/entry";
import { chainRunner } from "../../walk/walk-chain";
import type { ToolPort } from "./tool-port";

/** One section entry's VM, set up as the walk sets it up, driven block by block by a test. */
export interface SectionVm {
  readonly entry: Entry;
  readonly vm: LuaVm;
  /** Runs `source` as a block of the section: its values, or throws its failure message. */
  run(source: string): Promise<LuaValue[]>;
  /** Closes the VM. */
  close(): void;
}

/**
 * Opens the first section of `promptText` (a whole prompt file) as an entry with a VM that has
 * every Engine global, so a test can act between blocks the way a later area would (render the
 * tool list as the first models.loop round does, read the entry's tool state).
 */
export async function openSectionVm(
  promptText: string,
  port: ToolPort,
  catalog: RunCatalog,
): Promise<SectionVm> {
  const [prompt, factory, runtime] = await Promise.all([
    parseForTest(promptText),
    loadLuaVmFactory(),
    loadLuaRuntime(),
  ]);
  const ctx = new RunContext(prompt, resolveRunOptions({ effects: port, catalog }), runtime);
  const scope = Scope.root(factory, ctx.options);
  const entry = new Entry(ctx, Chain.root(scope), ctx.tree.firstSection, "");
  const vm = scope.createVm();
  await setupSectionVm(vm, entry, {}, chainRunner(ctx));
  let blocks = 0;
  return {
    entry,
    vm,
    async run(source) {
      const outcome = await vm.runBlock({ source, chunkName: `=block ${++blocks}` });
      if (!outcome.ok) throw new Error(outcome.message);
      return outcome.values;
    },
    close: () => {
      scope.closeVm(vm);
      scope.close();
    },
  };
}

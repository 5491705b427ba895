import type { EntryVia } from "@runvil/protocol";
import type { LuaJsonObject } from "../lua";
import type { RunContext } from "../run/run-context";
import type { Chain } from "./chain";
import type { ChainEnd, ChainRunner } from "./chain-runner";
import { runEntry } from "./run-entry";

/**
 * Makes the ChainRunner of a run: a chain walks from its first section, entry after entry
 * (jump targets, else fall-through within the chain's container), until an entry returns or no
 * section is left (docs/design/walk.md).
 */
export function chainRunner(ctx: RunContext): ChainRunner {
  const runChain: ChainRunner = async (chain, first, via, startVar, args) =>
    walk(ctx, chain, first, via, startVar, args, runChain);
  return runChain;
}

async function walk(
  ctx: RunContext,
  chain: Chain,
  first: number,
  via: EntryVia,
  startVar: LuaJsonObject,
  args: string,
  runChain: ChainRunner,
): Promise<ChainEnd> {
  let section: number | null = first;
  let how = via;
  let current = startVar;
  while (section !== null) {
    const end = await runEntry(chain, section, how, current, args, runChain, ctx);
    current = end.var;
    if (chain.depth === 0) ctx.rootVar = current;
    if (end.ended === "return") return { result: end.text, var: current };
    if (end.ended === "jump") {
      section = end.section;
      how = "jump";
    } else {
      section = ctx.tree.next(section, chain.container);
      how = "walk";
    }
  }
  return { result: null, var: current };
}

import type { EntryVia } from "@runvil/protocol";
import type { LuaJsonObject } from "../lua";
import type { Chain } from "./chain";

/** How a chain ended without failing: its result (null: no return) and its final `var`. */
export interface ChainEnd {
  readonly result: string | null;
  readonly var: LuaJsonObject;
}

/**
 * Walks `chain` from section `first` (entered as `via`) with `startVar` and `args`, until an
 * entry returns or the chain runs out of sections. Throws ScopeEnded when the chain's scope ends
 * early.
 */
export type ChainRunner = (
  chain: Chain,
  first: number,
  via: EntryVia,
  startVar: LuaJsonObject,
  args: string,
) => Promise<ChainEnd>;

import { loadLuaVmFactory } from "../lua";
import { Scope, type ScopeSources } from "../scope/scope";

/** Sources with nothing set: a tree that nothing outside cancels or stops. */
export const NO_SOURCES: ScopeSources = {
  luaMemoryBytes: undefined,
  cancelFlag: undefined,
  cancelFlagIndex: 0,
  shouldCancel: undefined,
  signal: undefined,
  stopFlag: undefined,
  stopFlagIndex: 0,
  shouldStop: undefined,
  stopSignal: undefined,
};

/** A root scope over the real VM factory, with `sources` over NO_SOURCES. */
export async function testRootScope(sources: Partial<ScopeSources> = {}): Promise<Scope> {
  return Scope.root(await loadLuaVmFactory(), { ...NO_SOURCES, ...sources });
}

import type { ScopeEnd } from "../scope/scope";

/**
 * Thrown by section setup when the Pack preludes did not install: the entry's scope ends with
 * `ending` once the VM is torn down (a failure, kind Lua), or `stop` when the install was
 * cancelled because the scope already ends.
 */
export class PreludeInstallFailure extends Error {
  readonly ending: ScopeEnd | "stop";

  constructor(ending: ScopeEnd | "stop") {
    super(ending === "stop" || ending.kind !== "failed" ? "cancelled" : ending.error.message);
    this.name = "PreludeInstallFailure";
    this.ending = ending;
  }
}

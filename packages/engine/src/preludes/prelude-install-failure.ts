import type { RunEnding } from "../run/run-context";

/**
 * Thrown by section setup when the Pack preludes did not install: the run ends with `ending`
 * once the VM is torn down (a failed run, kind Lua), or `stop` when the install was cancelled
 * because the run already ends.
 */
export class PreludeInstallFailure extends Error {
  readonly ending: RunEnding | "stop";

  constructor(ending: RunEnding | "stop") {
    super(ending === "stop" || ending.kind !== "failed" ? "cancelled" : ending.error.message);
    this.name = "PreludeInstallFailure";
    this.ending = ending;
  }
}

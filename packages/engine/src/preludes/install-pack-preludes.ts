import { installPreludes, type LuaVm } from "../lua";
import { failed } from "../run/block-failure";
import type { Entry } from "../walk/entry";
import { preludeChunks } from "./prelude-chunks";
import { PreludeInstallFailure } from "./prelude-install-failure";

/**
 * Setup step 8: installs the run's Pack preludes (RunCatalog.preludes, in `uses:` order) into
 * `entry`'s VM (tools.txt "Pack preludes"; docs/design/preludes.md). Does nothing for a run
 * without preludes. While a prelude loads, its store calls go out as `entry`'s store effects.
 * Throws a PreludeInstallFailure when a prelude does not load or defines a global it may not
 * (run error kind Lua, the message naming the Pack), or when the scope was cancelled meanwhile.
 */
export async function installPackPreludes(vm: LuaVm, entry: Entry): Promise<void> {
  const { ctx, scope } = entry;
  const { preludes } = ctx.options.catalog;
  if (preludes.length === 0) return;
  const outcome = await installPreludes(vm, preludeChunks(ctx.runtime, preludes));
  if (outcome.ok) return;
  if (outcome.reason === "cancelled") {
    // A stop the count hook saw is recorded here (docs/design/stop.md).
    throw new PreludeInstallFailure(scope.shouldStop() ? "stop" : { kind: "cancelled" });
  }
  throw new PreludeInstallFailure(failed(entry, "Lua", outcome.message));
}

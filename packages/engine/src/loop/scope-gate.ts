import { EngineError } from "../lua";
import type { RunTools } from "../tools/run-tools";
import type { AdvertisedTools, CallRoute } from "./advertised-tools";
import { outOfScopeMessage } from "./loop-texts";

/** How a round's calls pass the scope gate: each call's route, or the first refused call. */
export type GateOutcome =
  | { readonly ok: true; readonly routes: readonly CallRoute[] }
  | { readonly ok: false; readonly index: number; readonly error: EngineError };

/**
 * The round's scope gate (tools chapter, "How the loop resolves each call"; loop.md §4.3):
 * every called name against the names the round advertised, before any call runs. The first
 * name it did not advertise fails the round with `out_of_scope_tool` (field `name`, the name
 * as the model called it), its message listing the advertised names and, when the name is the
 * wire name of a tool the run offers, the not-offered hint.
 */
export function gateCalls(
  names: readonly string[],
  advertised: AdvertisedTools,
  run: RunTools,
): GateOutcome {
  const routes: CallRoute[] = [];
  for (const [index, name] of names.entries()) {
    const route = advertised.route(name);
    if (route === undefined) {
      const notOffered = run.offeredByWireName(name) !== undefined;
      const message = outOfScopeMessage(name, advertised.names, notOffered);
      return { ok: false, index, error: new EngineError("out_of_scope_tool", message, { name }) };
    }
    routes.push(route);
  }
  return { ok: true, routes };
}

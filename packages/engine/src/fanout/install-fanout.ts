import { suspendOn } from "../globals/arguments";
import { resolveTarget } from "../globals/jump-call";
import { argumentError, type HostCall, type HostFunction, type LuaValue, quotaError } from "../lua";
import { ScopeEnded } from "../scope/scope";
import { callShift } from "../tasks/install-tasks";
import { runTasksOf } from "../tasks/run-tasks";
import type { Entry } from "../walk/entry";
import FANOUT_LUA from "./fanout.lua";
import {
  FANOUT_ARITY_MESSAGE,
  FANOUT_RECURSION_MESSAGE,
  FANOUT_RESULTS_LABEL,
  MAX_FANOUT_MEMBERS,
  notACollectionMessage,
  readOnlyResultsMessage,
  tooManyMembersMessage,
  unorderedKeyMessage,
  unreadableCollectionMessage,
} from "./fanout-messages";
import { runFanout } from "./run-fanout";

/** The chunk name fanout.lua is compiled under: frames read `runvil/fanout.lua:{line}:`. */
export const FANOUT_LUA_CHUNK_NAME = "@runvil/fanout.lua";

const compiled = new WeakMap<Entry["ctx"]["runtime"], Uint8Array>();

function fanoutBytecode(entry: Entry): Uint8Array {
  const { runtime } = entry.ctx;
  let bytecode = compiled.get(runtime);
  if (bytecode === undefined) {
    const result = runtime.compile(FANOUT_LUA, FANOUT_LUA_CHUNK_NAME);
    if (!result.ok) throw new Error(`the fanout Lua does not compile: ${result.diagnostic}`);
    bytecode = result.bytecode;
    compiled.set(runtime, bytecode);
  }
  return bytecode;
}

/** The refusal fanout.lua asks for by its code. */
function refusal(call: HostCall): never {
  const code = call.text(2) ?? "";
  const detail = call.type(3) === "string" ? (call.text(3) ?? "") : undefined;
  switch (code) {
    case "arity":
      throw argumentError(FANOUT_ARITY_MESSAGE);
    case "collection":
      throw argumentError(notACollectionMessage(detail ?? "nil"));
    case "key":
      throw argumentError(unorderedKeyMessage(detail ?? "table"));
    case "unreadable":
      throw argumentError(unreadableCollectionMessage(detail));
    case "readonly":
      throw argumentError(readOnlyResultsMessage(detail ?? ""));
    default:
      throw new Error(`unknown fanout refusal ${code}`);
  }
}

/**
 * The host side of fanout.lua for one entry: `H(op, ...)`; `H('code')` gives fanout.lua's
 * bytecode and the result views' `__metatable` text (lazy-areas.lua loads it on the first call
 * of `tasks.fanout`).
 */
export function fanoutHost(entry: Entry): HostFunction {
  return (call) => {
    const op = call.text(1) ?? "";
    switch (op) {
      case "code":
        return [fanoutBytecode(entry), FANOUT_RESULTS_LABEL];
      case "fail":
        return refusal(call);
      case "fail_text":
        throw argumentError(call.text(2) ?? "");
      case "check": {
        resolveTarget(entry, callShift(call));
        if (entry.chain.atCallCap) throw quotaError(FANOUT_RECURSION_MESSAGE);
        return [];
      }
      case "count": {
        const count = Number(call.integer(2) ?? 0);
        if (count > MAX_FANOUT_MEMBERS) throw argumentError(tooManyMembersMessage(count));
        return [];
      }
      case "run": {
        const { section, target } = resolveTarget(entry, callShift(call));
        const listed = call.value(3);
        const members = Array.isArray(listed) ? listed.map(String) : [];
        const startVar = entry.readVar();
        if (entry.scope.shouldStop()) return suspendOn(Promise.reject(new ScopeEnded(entry.scope)));
        runTasksOf(entry.ctx).checkArms(members.length); // the run-wide task guard (tasks.md)
        return suspendOn(
          runFanout(entry, { section, target, members, startVar }).then((entries) => [
            entries.map((e): LuaValue => ({ ok: e.ok, text: e.text, exhausted: e.exhausted })),
          ]),
        );
      }
      default:
        throw new Error(`unknown fanout operation ${op}`);
    }
  };
}

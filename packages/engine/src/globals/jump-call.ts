import type { HostFunction, LuaVm } from "../lua";
import { argumentError, EngineError, encodeJsonValue, quotaError } from "../lua";
import { ScopeEnded } from "../scope/scope";
import { JUMP_IN_HANDLER_MESSAGE } from "../tools/tool-messages";
import { CALL_RECURSION_MESSAGE } from "../walk/chain";
import type { ChainRunner } from "../walk/chain-runner";
import type { Entry } from "../walk/entry";
import { SECTION_TARGET_NOT_STRING, sectionNotFoundMessage } from "../walk/heading-reference";
import { argumentTypeName, suspendOn } from "./arguments";
import { readArgvBack } from "./install-engine-lua";

/** Resolves argument 1 of `call`, `jump` or `require` from the entry's section. */
export function resolveTarget(
  entry: Entry,
  call: Parameters<HostFunction>[0],
): { section: number; target: string } {
  if (call.type(1) !== "string") throw argumentError(SECTION_TARGET_NOT_STRING);
  const target = call.text(1) ?? "";
  const section = entry.ctx.tree.resolve(target, entry.section);
  if (section === null) throw argumentError(sectionNotFoundMessage(target));
  return { section, target: target.trim() };
}

/**
 * Setup step 5: `jump(target)` records the entry's pending jump and returns nothing. While a
 * local tool handler runs (tools), jump is refused until the outermost handler ends.
 */
export function installJump(vm: LuaVm, entry: Entry): void {
  vm.setGlobal("jump", (call) => {
    if (entry.tools.handlerDepth > 0) throw argumentError(JUMP_IN_HANDLER_MESSAGE); // tools
    entry.pendingJump = resolveTarget(entry, call);
  });
}

/**
 * The argv a chain called from `entry` sees: in the H1 pass, argv as the pass has repaired it
 * so far, read back once the calling block has yielded (Engine Lua cannot run while the block
 * does); elsewhere the caller's (undefined: inherited). argv that is not JSON data refuses the
 * call with json.encode's reason, raised at the call (kind lua).
 */
async function childArgv(vm: LuaVm, entry: Entry): Promise<string | undefined> {
  if (!entry.isH1) return undefined;
  await Promise.resolve();
  try {
    return encodeJsonValue(readArgvBack(vm));
  } catch (error) {
    throw new EngineError("lua", error instanceof Error ? error.message : String(error));
  }
}

/**
 * Setup step 6: `call(target [, input])` runs the target in a new child chain, in the caller's
 * scope (its failure is the caller's), and suspends the calling block until the chain ends
 * (docs/design/call-and-jump.md, scopes.md).
 */
export function installCall(vm: LuaVm, entry: Entry, runChain: ChainRunner): void {
  vm.setGlobal("call", (call) => {
    const { section, target } = resolveTarget(entry, call);
    const inputType = call.type(2);
    if (inputType !== "nil" && inputType !== "string") {
      throw argumentError(`input must be a string, got ${argumentTypeName(call, 2)}`);
    }
    const input = inputType === "string" ? (call.text(2) ?? "") : undefined;
    if (entry.chain.atCallCap) throw quotaError(CALL_RECURSION_MESSAGE);
    const startVar = entry.readVar();
    const { ctx, scope } = entry;
    // Once the scope ends (or is stopped) no chain opens: the block ends with it (stop.md).
    if (scope.shouldStop()) return suspendOn(Promise.reject(new ScopeEnded(scope)));
    return suspendOn(
      childArgv(vm, entry).then((argvJson) => {
        const child = entry.chain.openCallChain(ctx.tree.parentOf(section), argvJson);
        ctx.emit(entry.source, "call_started", { target, child: child.id });
        return runChain(child, section, "call", startVar, input ?? entry.args).then((end) => {
          ctx.emit(entry.source, "call_returned", {
            child: child.id,
            returned: end.result !== null,
          });
          return end.result === null ? [] : [end.result];
        });
      }),
    );
  });
}

import {
  COMPACT_ARITY_MESSAGE,
  COMPACT_EMPTY_MESSAGE,
  explicitCompactionMessage,
} from "../compact/compact-texts";
import { reportCompactionStarted } from "../compact/compaction-events";
import type { CompactionInfo } from "../compact/compaction-policy";
import { compactorReturnedError } from "../compact/compactor-result";
import { suspendOn } from "../globals/arguments";
import {
  argumentError,
  EngineError,
  type HostCall,
  type HostFunction,
  type HostResult,
  type LuaRuntime,
  YIELD_ACROSS_C_MESSAGE,
} from "../lua";
import { estimateRequest } from "../models/estimate";
import { noModelMessage, unboundRoleMessage } from "../models/models-texts";
import type { ModelRole } from "../models/run-models";
import { runModelsOf } from "../models/run-models";
import { sectionRole } from "../models/section-model";
import { renderSectionTools } from "../tools/render";
import { runToolsOf } from "../tools/run-tools";
import type { Entry } from "../walk/entry";
import { type AdvertisedTools, advertisedTools } from "./advertised-tools";
import { CompactRun } from "./compact-run";
import LOOP_IMPL_LUA from "./loop-impl.lua";
import { lockHolder, releaseLoopLock, takeLoopLock } from "./loop-lock";
import { type Compacting, LoopRun } from "./loop-run";
import {
  compactorTypeMessage,
  emptyMessagesMessage,
  handlerRefusalMessage,
  type LoopFunction,
  loopArityMessage,
  loopBusyMessage,
  modelTakesNoToolsMessage,
  NO_TASK_PORT_MESSAGE,
} from "./loop-texts";

/** The chunk name of the driver (loop-impl.lua). */
export const LOOP_IMPL_CHUNK_NAME = "@runvil/loop-impl.lua";

/** The driver, compiled once per runtime. */
interface LoopLuaBytecode {
  readonly impl: Uint8Array;
}

const compiled = new WeakMap<LuaRuntime, LoopLuaBytecode>();

function compile(runtime: LuaRuntime, source: string, name: string): Uint8Array {
  const result = runtime.compile(source, name);
  if (!result.ok) throw new Error(`the loop Lua does not compile: ${result.diagnostic}`);
  return result.bytecode;
}

function loopBytecode(runtime: LuaRuntime): LoopLuaBytecode {
  let bytecode = compiled.get(runtime);
  if (bytecode === undefined) {
    bytecode = {
      impl: compile(runtime, LOOP_IMPL_LUA, LOOP_IMPL_CHUNK_NAME),
    };
    compiled.set(runtime, bytecode);
  }
  return bytecode;
}

/** The section's advertised tools (rendering its list at the first loop). */
function sectionTools(entry: Entry, render: boolean): AdvertisedTools | undefined {
  const rendered = render ? renderSectionTools(entry) : entry.tools.rendered;
  if (rendered === null) return undefined;
  const port = entry.ctx.taskBuiltins;
  if (rendered.taskBuiltins && port === undefined && render) {
    throw argumentError(NO_TASK_PORT_MESSAGE);
  }
  return advertisedTools(runToolsOf(entry.ctx), rendered, port?.definitions() ?? []);
}

/** A role's binding, or the internal failure of a role the run did not bind. */
function bindingOf(role: ModelRole): NonNullable<ModelRole["binding"]> {
  if (role.binding === undefined) throw new EngineError("internal", unboundRoleMessage(role.label));
  return role.binding;
}

/**
 * `models.loop(compactor?)` / `handle:loop(compactor?)` starting (docs/design/loop.md §1): the
 * checks in their order, each kind lua with nothing rendered or sent, then the render at the
 * section's first loop, the tools check of the bound model, and the chain's loop lock.
 * Arguments: the handle's role label (nil for models.loop), the argument count, the compactor's
 * type name.
 */
function beginLoop(entry: Entry, call: HostCall): void {
  const label = call.type(2) === "string" ? (call.text(2) ?? "") : undefined;
  const fn: LoopFunction = label === undefined ? "models.loop" : "handle:loop";
  const compactorType = call.text(4) ?? "nil";
  if (Number(call.integer(3) ?? 0) > 1) throw argumentError(loopArityMessage(fn));
  if (compactorType !== "nil" && compactorType !== "function") {
    throw argumentError(compactorTypeMessage(compactorType));
  }
  if (entry.tools.handlerDepth > 0) throw argumentError(handlerRefusalMessage(fn));
  if (lockHolder(entry.chain) !== undefined) throw argumentError(loopBusyMessage(fn));
  const role = label === undefined ? sectionRole(entry) : runModelsOf(entry.ctx).role(label);
  if (role === undefined) throw argumentError(noModelMessage("models.loop"));
  if (entry.messages.length === 0) throw argumentError(emptyMessagesMessage(fn));
  if (!call.canSuspend) throw new Error(YIELD_ACROSS_C_MESSAGE);
  const advertised = sectionTools(entry, true);
  if (advertised === undefined)
    throw new Error("models.loop: the section's tool list did not render");
  const binding = bindingOf(role);
  if (advertised.tools.length > 0 && !binding.tools) {
    throw argumentError(
      modelTakesNoToolsMessage(fn, binding.model, role.label, advertised.tools.length),
    );
  }
  takeLoopLock(new LoopRun(entry, fn, role, binding, advertised, compactorType === "function"));
}

/**
 * `models.compact(compactor)` starting (compactors.md): its checks, the `info` its compactor
 * receives (reason `explicit`), `compaction_started`, and the chain's loop lock.
 */
function beginCompact(entry: Entry, call: HostCall): CompactionInfo {
  const fn = "models.compact";
  if (Number(call.integer(2) ?? 0) !== 1) throw argumentError(COMPACT_ARITY_MESSAGE);
  const compactorType = call.text(3) ?? "nil";
  if (compactorType !== "function") throw argumentError(compactorTypeMessage(compactorType));
  if (entry.tools.handlerDepth > 0) throw argumentError(handlerRefusalMessage(fn));
  if (lockHolder(entry.chain) !== undefined) throw argumentError(loopBusyMessage(fn));
  const role = sectionRole(entry);
  if (role === undefined) throw argumentError(noModelMessage(fn));
  const records = entry.messages.records;
  if (records.length === 0) throw argumentError(COMPACT_EMPTY_MESSAGE);
  const binding = bindingOf(role);
  const tools = sectionTools(entry, false)?.tools ?? [];
  const estimate = estimateRequest({ system: binding.system, records, tools });
  const turn = entry.tools.rounds + 1;
  reportCompactionStarted(entry, turn, "explicit", 1, records.length, estimate);
  takeLoopLock(new CompactRun(entry, turn, binding.system, tools));
  return {
    reason: "explicit",
    estimated_tokens: estimate,
    context_window: binding.contextWindow,
    model: binding.model,
    role: role.label,
    turn,
    attempt: 1,
    message: explicitCompactionMessage(estimate, binding.contextWindow, binding.model),
  };
}

/** The loop or compaction `entry` runs now. */
function running(entry: Entry): Compacting {
  const holder = lockHolder(entry.chain);
  if (holder === undefined || holder.entry !== entry) throw new Error("no loop runs in this entry");
  return holder as Compacting;
}

/** The loop `entry` runs now. */
function runningLoop(entry: Entry): LoopRun {
  const holder = running(entry);
  if (!(holder instanceof LoopRun)) throw new Error("no loop runs in this entry");
  return holder;
}

/**
 * The host side of the loop driver for one entry: `H(op, ...)` (see loop-impl.lua).
 * lazy-globals.lua asks for it, with the compactors' host, on the first loop, compaction or read
 * of a `compactors` member.
 */
export function loopHost(entry: Entry): HostFunction {
  const texts = {};
  return (call) => {
    const op = call.text(1);
    switch (op) {
      case "code":
        return [loopBytecode(entry.ctx.runtime).impl, texts];
      case "begin":
        beginLoop(entry, call);
        return [];
      case "step": {
        const step = runningLoop(entry).step();
        return step instanceof Promise ? suspendOn(step) : (step as HostResult);
      }
      case "answer":
        runningLoop(entry).answer(call.text(2) ?? "");
        return [];
      case "compact_begin":
        return [{ ...beginCompact(entry, call) }];
      case "compact_refused": {
        const holder = running(entry);
        const error = compactorReturnedError(holder.fn, call.text(2) ?? "nil");
        holder.compactFailed(error.message);
        throw error;
      }
      case "compacted":
        running(entry).compacted();
        return [];
      case "compact_failed":
        running(entry).compactFailed(call.text(2) ?? "");
        return [];
      case "end":
        releaseLoopLock(entry);
        return [];
      default:
        throw new Error(`unknown loop operation ${String(op)}`);
    }
  };
}

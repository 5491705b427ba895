import { suspendOn } from "../globals/arguments";
import { resolveTarget } from "../globals/jump-call";
import {
  argumentError,
  type HostCall,
  type HostFunction,
  type LuaRuntime,
  type LuaValue,
  type LuaVm,
  quotaError,
} from "../lua";
import { ScopeEnded } from "../scope/scope";
import { CALL_RECURSION_MESSAGE } from "../walk/chain";
import type { Entry } from "../walk/entry";
import ITEM_LUA from "./item.lua";
import { runTasksOf } from "./run-tasks";
import {
  CANCEL_ARITY_MESSAGE,
  CONCURRENCY_ARITY_MESSAGE,
  JOIN_ANY_ARITY_MESSAGE,
  JOIN_ANY_EMPTY_MESSAGE,
  JOIN_ARITY_MESSAGE,
  NOTE_ARITY_MESSAGE,
  noteText,
  SPAWN_ARITY_MESSAGE,
} from "./task-messages";
import type { TaskResultEntry } from "./task-set";
import TASKS_LUA from "./tasks.lua";

/** `sys.taskid` on the root chain and in the chains it calls: no task. */
const ROOT_TASK_ID = "0";

/** The chunk name tasks.lua is compiled under: frames read `runvil/tasks.lua:{line}:`. */
export const TASKS_LUA_CHUNK_NAME = "@runvil/tasks.lua";

/** The chunk name item.lua runs under. */
export const ITEM_LUA_CHUNK_NAME = "@runvil/item.lua";

const FIXED_MESSAGES: Readonly<Record<string, string>> = {
  spawn_arity: SPAWN_ARITY_MESSAGE,
  join_arity: JOIN_ARITY_MESSAGE,
  join_any_arity: JOIN_ANY_ARITY_MESSAGE,
  join_any_empty: JOIN_ANY_EMPTY_MESSAGE,
  cancel_arity: CANCEL_ARITY_MESSAGE,
  concurrency_arity: CONCURRENCY_ARITY_MESSAGE,
  note_arity: NOTE_ARITY_MESSAGE,
};

interface TasksBytecode {
  readonly tasks: Uint8Array;
  readonly item: Uint8Array;
}

const compiled = new WeakMap<LuaRuntime, TasksBytecode>();

function compile(runtime: LuaRuntime, source: string, name: string): Uint8Array {
  const result = runtime.compile(source, name);
  if (!result.ok) throw new Error(`the tasks Lua does not compile: ${result.diagnostic}`);
  return result.bytecode;
}

function tasksBytecode(runtime: LuaRuntime): TasksBytecode {
  let bytecode = compiled.get(runtime);
  if (bytecode === undefined) {
    bytecode = {
      tasks: compile(runtime, TASKS_LUA, TASKS_LUA_CHUNK_NAME),
      item: compile(runtime, ITEM_LUA, ITEM_LUA_CHUNK_NAME),
    };
    compiled.set(runtime, bytecode);
  }
  return bytecode;
}

/** A list of ids the Lua side checked (strings in order). */
function idList(call: HostCall, index: number): string[] {
  const value = call.value(index);
  if (!Array.isArray(value)) return [];
  return value.map((id: LuaValue) => String(id));
}

function entryValue(entry: TaskResultEntry): LuaValue {
  return { task: entry.task, ok: entry.ok, result: entry.result };
}

/** Once the scope has ended (or stopped), no task operation starts: the block ends with it. */
function guarded<T>(entry: Entry, work: () => Promise<T>): Promise<T> {
  if (entry.scope.shouldStop()) return suspendOn(Promise.reject(new ScopeEnded(entry.scope)));
  return suspendOn(work());
}

/**
 * The host side of tasks.lua for one entry: `H(op, ...)`; `H('code')` gives tasks.lua's bytecode
 * (lazy-globals.lua loads it on the first call of a `tasks` member).
 */
export function tasksHost(entry: Entry): HostFunction {
  return (call) => {
    const op = call.text(1) ?? "";
    switch (op) {
      case "code":
        return [tasksBytecode(entry.ctx.runtime).tasks];
      case "fail":
        throw argumentError(FIXED_MESSAGES[call.text(2) ?? ""] ?? "tasks: bad call");
      case "fail_text":
        throw argumentError(call.text(2) ?? "");
      case "spawn": {
        const { section } = resolveTarget(entry, callShift(call));
        const target = (call.text(2) ?? "").trim();
        if (entry.chain.atCallCap) throw quotaError(CALL_RECURSION_MESSAGE);
        const itemJson = call.text(3) ?? "null";
        const index = call.type(4) === "number" ? Number(call.integer(4)) : undefined;
        const startVar = entry.readVar();
        return guarded(entry, async () => {
          const id = entry.taskSet.spawn({
            section,
            target,
            container: entry.ctx.tree.parentOf(section),
            itemJson,
            index,
            startVar,
          });
          return [{ task: id }];
        });
      }
      case "join": {
        const ids = idList(call, 2);
        entry.taskSet.check("tasks.join", ids);
        return guarded(entry, async () => {
          const entries = await entry.taskSet.join(ids);
          return [entries.map(entryValue)];
        });
      }
      case "join_any": {
        const ids = idList(call, 2);
        entry.taskSet.check("tasks.join_any", ids);
        return guarded(entry, async () => {
          const [first, position] = await entry.taskSet.joinAny(ids);
          return [entryValue(first), position];
        });
      }
      case "cancel": {
        const ids = idList(call, 2);
        entry.taskSet.check("tasks.cancel", ids);
        return guarded(entry, async () => {
          await entry.taskSet.cancel(ids);
          return [];
        });
      }
      case "concurrency": {
        const value = call.number(2);
        if (value !== null) entry.taskSet.setLimit(value);
        const limit = entry.taskSet.limit;
        return guarded(entry, async () => [limit]);
      }
      case "note": {
        const text = noteText(call.text(2) ?? "");
        return guarded(entry, async () => {
          const task = entry.chain.taskId;
          // On the main walk it only reports the event; a task's note is what task_status reads.
          if (task !== ROOT_TASK_ID) runTasksOf(entry.ctx).setNote(task, text);
          entry.ctx.emit(entry.source, "task_note", { task, text });
          return [];
        });
      }
      default:
        throw new Error(`unknown tasks operation ${op}`);
    }
  };
}

/** The HostCall `call` seen from argument 2 on (resolveTarget reads its argument 1). */
export function callShift(call: HostCall): HostCall {
  return {
    vm: call.vm,
    name: call.name,
    argCount: call.argCount - 1,
    canSuspend: call.canSuspend,
    type: (i) => call.type(i + 1),
    value: (i) => call.value(i + 1),
    values: () => call.values().slice(1),
    text: (i) => call.text(i + 1),
    bytes: (i) => call.bytes(i + 1),
    integer: (i) => call.integer(i + 1),
    number: (i) => call.number(i + 1),
    boolean: (i) => call.boolean(i + 1),
  };
}

/** Setup step 4: the `item` global, in the entries of a task chain only. */
export function installItem(vm: LuaVm, entry: Entry): void {
  const itemJson = entry.chain.itemJson;
  if (itemJson === undefined) return;
  const outcome = vm.runPrivileged({
    bytecode: tasksBytecode(entry.ctx.runtime).item,
    chunkName: ITEM_LUA_CHUNK_NAME,
    args: [itemJson],
  });
  if (!outcome.ok) throw new Error(`the item setup failed: ${outcome.message}`);
}

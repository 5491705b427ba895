import type { StoreOpEventFields, StoreOperation, StoreOutput } from "@runvil/protocol";
import { StoreError, type StoreText } from "@runvil/sdk";
import { claimStoreOp } from "../claims/determinism";
import { EngineError, type HostCall, type HostFunction, type LuaVm } from "../lua";
import type { Entry } from "../walk/entry";
import { storeTextArgument, suspendOn } from "./arguments";

/**
 * Performs one store operation for `entry` through the EffectPort, then reports it
 * (`store_op`). A failure the store reports becomes a `store` error value (reason, path,
 * count, valid_up_to); any other failure a `lua` one naming the function. Before it is issued
 * the operation is checked by the store claim rule, which can end the run as `Determinism`
 * (docs/design/determinism.md). The request carries
 * the signal of the entry's scope. Once that scope ends (or is stopped) the operation is not
 * issued: it rejects with ScopeEnded, and the block, whose VM the ending stops, never sees it
 * (docs/design/stop.md).
 */
export async function performStoreOp<O extends StoreOperation>(
  entry: Entry,
  operation: O,
): Promise<StoreOutput<O["op"]>> {
  const { ctx, scope } = entry;
  scope.checkStop();
  claimStoreOp(entry, operation); // the store claim rule (docs/design/determinism.md)
  try {
    const output = await ctx.options.effects.storeOp({
      operation,
      origin: entry.origin,
      effect: entry.nextEffectId(),
      signal: scope.signal,
    });
    ctx.emit(entry.source, "store_op", reported(operation, true));
    return output;
  } catch (error) {
    if (StoreError.isInstance(error)) {
      ctx.emit(entry.source, "store_op", reported(operation, false, error.reason));
      const fields: Record<string, string | number> = { reason: error.reason, path: error.path };
      if (error.count !== undefined) fields.count = error.count;
      if (error.validUpTo !== undefined) fields.valid_up_to = error.validUpTo;
      throw new EngineError("store", error.message, fields);
    }
    ctx.emit(entry.source, "store_op", reported(operation, false));
    const message = error instanceof Error ? error.message : String(error);
    throw new EngineError("lua", `store.${operation.op}: ${message}`);
  }
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * A store report's fields: the operation and its path, prefix or pattern (never contents), how
 * it ended and the store's reason for a failure, in that order (the event line's). Each shape is
 * one object literal: a spread (`{ ...named, ok }`) costs ~1.5 µs per object on Node 20's V8,
 * once per store effect (docs/design/performance.md).
 */
function reported(operation: StoreOperation, ok: boolean, reason?: string): StoreOpEventFields {
  let fields: Mutable<StoreOpEventFields>;
  switch (operation.op) {
    case "list":
      fields =
        operation.prefix === undefined
          ? { op: "list", ok }
          : { op: "list", prefix: shown(operation.prefix), ok };
      break;
    case "glob":
      fields = { op: "glob", pattern: shown(operation.pattern), ok };
      break;
    default:
      fields = { op: operation.op, path: shown(operation.path), ok };
  }
  if (reason !== undefined) fields.reason = reason;
  return fields;
}

/** Store text as events show it (bytes that are not UTF-8 with U+FFFD). */
function shown(text: StoreText): string {
  return typeof text === "string" ? text : new TextDecoder().decode(text);
}

type Reader = (call: HostCall) => StoreOperation;

const text = storeTextArgument;

const OPERATIONS: Readonly<Record<StoreOperation["op"], Reader>> = {
  read: (c) => ({ op: "read", path: text(c, 1, "path") }),
  write: (c) => ({ op: "write", path: text(c, 1, "path"), contents: text(c, 2, "contents") }),
  append: (c) => ({ op: "append", path: text(c, 1, "path"), text: text(c, 2, "text") }),
  edit: (c) => ({
    op: "edit",
    path: text(c, 1, "path"),
    old: text(c, 2, "old"),
    new: text(c, 3, "new"),
  }),
  delete: (c) => ({ op: "delete", path: text(c, 1, "path") }),
  exists: (c) => ({ op: "exists", path: text(c, 1, "path") }),
  list: (c) =>
    c.type(1) === "nil" ? { op: "list" } : { op: "list", prefix: text(c, 1, "prefix") },
  glob: (c) => ({ op: "glob", pattern: text(c, 1, "pattern") }),
};

/** The store's functions for one entry: each checks its arguments, then suspends on the effect. */
function storeFunctions(entry: Entry): Record<string, HostFunction> {
  const functions: Record<string, HostFunction> = {};
  for (const [op, read] of Object.entries(OPERATIONS)) {
    functions[op] = (call) => {
      const operation = read(call);
      return suspendOn(
        performStoreOp(entry, operation).then((output) =>
          output === undefined ? [] : [output as string | boolean | string[]],
        ),
      );
    };
  }
  return functions;
}

/**
 * Setup step 2: the `store` table with its suspending functions, in one push. The chapter
 * installs the store's suspending calls last (step 10), after Pack preludes, so that a
 * prelude's install-time store calls run directly: the prelude install (step 8,
 * preludes/install-pack-preludes.ts) swaps these functions for direct ones while preludes load
 * and puts them back when it ends, which is step 10 since nothing runs in between.
 */
export function installStore(vm: LuaVm, entry: Entry): void {
  vm.setGlobal("store", storeFunctions(entry));
}

import { checkAlias, checkPackId, invalidAliasMessage } from "@runvil/names";
import type { CatalogTool } from "@runvil/protocol";
import type { JsonObject } from "@runvil/sdk";
import { suspendOn } from "../globals/arguments";
import {
  argumentError,
  decodeJsonValue,
  EngineError,
  ensureUserdataFactory,
  type HostCall,
  type HostFunction,
  type HostResult,
  JsonDecodeError,
  type LuaValue,
  type LuaVm,
  NEW_USERDATA_FIELD,
  YIELD_ACROSS_C_MESSAGE,
} from "../lua";
import { noteToolCall } from "../models/sys-model";
import type { Entry } from "../walk/entry";
import {
  type CatalogCall,
  catalogCallIdentity,
  dispatchCatalogCall,
  resolveScriptTool,
} from "./catalog-call";
import { sortNames } from "./debug-quote";
import { type LocalParam, localToolSchema } from "./local-params";
import { type RunTools, runToolsOf } from "./run-tools";
import {
  reportToolCallFailed,
  reportToolCallStarted,
  reportToolCallSucceeded,
  type ToolCallIdentity,
} from "./tool-events";
import { failureMessage, keyText } from "./tool-failures";
import {
  ALLOW_TASKS_BLANK_MESSAGE,
  aliasTakenMessage,
  CALLS_READ_ONLY_MESSAGE,
  handlerReturnMessage,
  missingCountMessage,
  notCatalogToolMessage,
  PACK_METATABLE_TEXT,
  packsOfferInvalidIdMessage,
  packsOfferUnavailableMessage,
  packsOfferUnknownMessage,
  structuredInvalidJsonMessage,
  structuredInvalidJsonReport,
  TOOL_METATABLE_TEXT,
  toolCallFailureMessage,
  toolListFixedMessage,
  unboundToolMessage,
} from "./tool-messages";
import type { LocalCallFrame } from "./tool-scope";
import { TOOLS_CORE_ARGS, TOOLS_LUA_CHUNK_NAME, toolsLuaBytecode } from "./tools-lua";

/** The strings a host function receives as one Lua list argument (a table with keys 1..n). */
function stringList(call: HostCall, index: number): string[] {
  const value = call.value(index);
  if (!Array.isArray(value)) return [];
  return value.map((item) => (typeof item === "string" ? item : String(item)));
}

/** A flat id, Pack id, description list of tools, as the Lua side builds Tool objects from it. */
function flatTools(tools: readonly CatalogTool[]): string[] {
  return tools.flatMap((tool) => [tool.id, tool.pack, tool.description]);
}

/** The identity of a local tool call's events. */
function localIdentity(frame: LocalCallFrame): ToolCallIdentity {
  return {
    turn: frame.turn,
    callId: frame.callId,
    alias: frame.alias,
    tool: undefined,
    caller: frame.callId === "" ? "script" : "model",
  };
}

/** Ends the innermost local call (its handler returned or raised) and gives its identity. */
function endLocalCall(entry: Entry): ToolCallIdentity {
  const frame = entry.tools.localCalls.pop();
  if (frame === undefined) throw new Error("no local tool call is running");
  return localIdentity(frame);
}

/** The unbound_tool error for `name`. */
function unbound(run: RunTools, name: string): EngineError {
  return new EngineError("unbound_tool", unboundToolMessage(name, run.offeringIds), { name });
}

/** The plain JSON object of a call's arguments (JSON text the Lua side encoded). */
function argumentsOf(text: string): JsonObject {
  if (text === "{}") return {};
  const parsed: unknown = JSON.parse(text);
  return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)
    ? (parsed as JsonObject)
    : {};
}

/**
 * A script call to a catalog tool: dispatch, then the result the block receives — the text, or
 * for a structured tool the text checked as JSON (the Lua side decodes it). A tool failure
 * raises `tool call failure: {message}` (kind tool); invalid structured JSON raises
 * `structured tool "{alias}" returned invalid JSON: {detail}` (kind tool).
 */
async function scriptCatalogCall(entry: Entry, call: CatalogCall): Promise<HostResult> {
  const identity = catalogCallIdentity(call);
  const outcome = await dispatchCatalogCall(entry, call);
  if (!outcome.ok) {
    const message = toolCallFailureMessage(outcome.message);
    reportToolCallFailed(entry, identity, message);
    throw new EngineError("tool", message);
  }
  if (call.tool.structured) {
    try {
      decodeJsonValue(outcome.text);
    } catch (error) {
      if (!(error instanceof JsonDecodeError)) throw error;
      const detail = error.message.replace(/^json\.decode: /, "");
      reportToolCallFailed(entry, identity, structuredInvalidJsonReport(call.name));
      throw new EngineError("tool", structuredInvalidJsonMessage(call.name, detail));
    }
  }
  reportToolCallSucceeded(entry, identity, outcome.text, outcome.trusted);
  return call.tool.structured ? [outcome.text, true] : [outcome.text];
}

/** The host side of the tools Lua for one entry: `H(op, ...)`. */
function toolsHost(entry: Entry): HostFunction {
  const { ctx } = entry;
  const scope = entry.tools;
  const run = runToolsOf(ctx);
  const bytecode = toolsLuaBytecode(ctx.runtime);
  const texts = {
    tool_meta: TOOL_METATABLE_TEXT,
    pack_meta: PACK_METATABLE_TEXT,
    calls_meta: CALLS_READ_ONLY_MESSAGE,
    new_userdata_field: NEW_USERDATA_FIELD,
  };
  return (call) => {
    const op = call.text(1);
    switch (op) {
      case "code":
        return [bytecode.impl, texts];
      case "fail":
        throw argumentError(failureMessage(call));
      case "open": {
        const fn = call.text(2) as Parameters<typeof toolListFixedMessage>[0];
        if (scope.rendered !== null) throw argumentError(toolListFixedMessage(fn));
        return [];
      }
      case "tool": {
        const tool = run.offered(call.text(2) ?? "");
        return tool === undefined ? [] : [tool.pack, tool.description];
      }
      case "tool_list": {
        const which = call.text(2);
        if (which === "required") return [flatTools(run.requiredTools)];
        if (which === "extras") return [flatTools(run.extraTools)];
        return [flatTools(run.packs.get(call.text(3) ?? "")?.tools ?? [])];
      }
      case "pack":
        return [run.packs.has(call.text(2) ?? "")];
      case "pack_list":
        return [call.text(2) === "required" ? run.requiredPacks : run.extraPacks];
      case "offer":
        return offerTools(run, entry, stringList(call, 2));
      case "offer_packs":
        return offerPacks(run, entry, stringList(call, 2));
      case "check_alias": {
        const alias = call.text(2) ?? "";
        if (!checkAlias(alias).ok) throw argumentError(invalidAliasMessage(alias));
        if (scope.locals.has(alias)) throw argumentError(aliasTakenMessage(alias));
        return [];
      }
      case "define_local":
        return defineLocal(entry, call);
      case "allow_tasks":
        return allowTasks(entry, call);
      case "calls_ready":
        return [scope.counts !== null];
      case "count":
        return [readCount(run, entry, call)];
      case "unbound":
        throw unbound(run, call.text(2) ?? "");
      case "call": {
        if (!call.canSuspend) throw new Error(YIELD_ACROSS_C_MESSAGE);
        const name = call.text(2) ?? "";
        const resolved = resolveScriptTool(entry, name);
        if (resolved === undefined) throw unbound(run, name);
        return suspendOn(
          scriptCatalogCall(entry, {
            tool: resolved.tool,
            name: resolved.name,
            arguments: argumentsOf(call.text(3) ?? "{}"),
            caller: "script",
            callId: "",
            turn: scope.rounds,
          }),
        );
      }
      case "local_start": {
        const alias = call.text(2) ?? "";
        const callId = call.text(3) ?? "";
        const turn = call.type(5) === "number" ? Number(call.integer(5) ?? 0) : scope.rounds;
        noteToolCall(entry);
        scope.countDispatch(run, alias);
        const frame = { alias, callId, turn };
        scope.localCalls.push(frame);
        reportToolCallStarted(entry, localIdentity(frame), argumentsOf(call.text(4) ?? "{}"));
        return [];
      }
      case "local_done":
        reportToolCallSucceeded(entry, endLocalCall(entry), call.text(2) ?? "", true);
        return [];
      case "local_failed":
        reportToolCallFailed(entry, endLocalCall(entry), call.text(2) ?? "");
        return [];
      case "local_rejected": {
        const message = handlerReturnMessage(call.text(2) ?? "table");
        reportToolCallFailed(entry, endLocalCall(entry), message);
        throw argumentError(message);
      }
      default:
        throw new Error(`unknown tools operation ${String(op)}`);
    }
  };
}

/** tools.offer's check and record: every id must be offered by the run; all or nothing. */
function offerTools(run: RunTools, entry: Entry, ids: readonly string[]): HostResult {
  for (const id of ids) {
    if (run.offered(id) === undefined) throw argumentError(notCatalogToolMessage(id));
  }
  entry.tools.offerTools(ids);
  return [];
}

/** packs.offer's check and record: each a valid Pack id the run knows and can use; all or nothing. */
function offerPacks(run: RunTools, entry: Entry, ids: readonly string[]): HostResult {
  for (const id of ids) {
    const parsed = checkPackId(id);
    if (!parsed.ok) throw argumentError(packsOfferInvalidIdMessage(id, parsed.reason));
    const reason = run.unavailable.get(id);
    if (reason !== undefined) throw argumentError(packsOfferUnavailableMessage(id, reason));
    if (!run.packs.has(id)) throw argumentError(packsOfferUnknownMessage(id));
  }
  entry.tools.offerPacks(ids);
  return [];
}

/** tools.offer_local's record: the parameter schema from the flat name, type, description list. */
function defineLocal(entry: Entry, call: HostCall): HostResult {
  const alias = call.text(2) ?? "";
  const description = call.text(3) ?? "";
  const flat = call.value(4);
  const params: LocalParam[] = [];
  if (Array.isArray(flat)) {
    for (let i = 0; i + 2 < flat.length; i += 3) {
      const about = flat[i + 2];
      params.push({
        name: String(flat[i]),
        type: String(flat[i + 1]),
        ...(typeof about === "string" ? { description: about } : {}),
      });
    }
  }
  const schema = localToolSchema(params);
  if (!schema.ok) throw argumentError(schema.message);
  entry.tools.locals.set(alias, { alias, description, parameters: schema.schema });
  return [];
}

/** tools.allow_tasks' record: any section, or the trimmed headings (none blank). */
function allowTasks(entry: Entry, call: HostCall): HostResult {
  if (call.argCount < 2) {
    entry.tools.allowlist = "any";
    return [];
  }
  const targets = stringList(call, 2).map((target) => target.trim());
  if (targets.some((target) => target === "")) throw argumentError(ALLOW_TASKS_BLANK_MESSAGE);
  entry.tools.allowlist = targets;
  return [];
}

/** A tools.calls read: the live count, or the missing-key error in its three endings. */
function readCount(run: RunTools, entry: Entry, call: HostCall): LuaValue {
  const counts = entry.tools.counts ?? new Map<string, number>();
  const key = keyText(call, 2);
  const count = call.type(2) === "string" ? counts.get(key) : undefined;
  if (count !== undefined) return count;
  const seeded = sortNames(counts.keys());
  const ending =
    call.type(2) === "string" && run.offered(key) !== undefined
      ? "catalog"
      : seeded.length > 0
        ? "typo"
        : "none";
  throw argumentError(missingCountMessage(key, seeded, ending));
}

/**
 * What the tools core (tools.lua) runs with after the private table: its bytecode, then its
 * arguments `(H, tools_metatable, packs_metatable)` for `entry`. installLazyGlobals runs it
 * first in its own chunk, so a section VM pays for one privileged run, not two.
 */
export function toolsCore(entry: Entry): readonly [Uint8Array, HostFunction, ...string[]] {
  return [toolsLuaBytecode(entry.ctx.runtime).core, toolsHost(entry), ...TOOLS_CORE_ARGS];
}

/**
 * Setup step 6 (tools part): installs the `tools` and `packs` globals in `vm` for `entry` (the
 * H1 pass, a section, or a library's requiring entry). Cheap: the implementation loads on the
 * first use of a member. A section VM gets them from installLazyGlobals, which runs the same core.
 */
export function installTools(vm: LuaVm, entry: Entry): void {
  ensureUserdataFactory(vm);
  const [bytecode, host, ...texts] = toolsCore(entry);
  const outcome = vm.runPrivileged({
    bytecode,
    chunkName: TOOLS_LUA_CHUNK_NAME,
    args: [host, ...texts],
  });
  if (!outcome.ok) throw new Error(`the tools Lua setup failed: ${outcome.message}`);
}

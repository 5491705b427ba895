import type { SubstitutionKind } from "@runvil/protocol";
import { ARGV_FROZEN_MESSAGE } from "../argv/derive-argv";
import {
  argumentError,
  decodeJsonValue,
  type HostCall,
  type HostFunction,
  type LuaJsonObject,
  type LuaValue,
  type LuaVm,
} from "../lua";
import { PROSE_READ_ONLY_MESSAGE, substitutionMessage, templateForLua } from "../prose/template";
import type { Entry } from "../walk/entry";
import {
  parseHeadingReference,
  SECTION_TARGET_NOT_STRING,
  sectionNotFoundMessage,
} from "../walk/heading-reference";
import {
  ENGINE_LUA_CHUNK_NAME,
  ENGINE_LUA_PARTS,
  type EngineLuaPart,
  engineLuaBytecode,
} from "./engine-lua";

const SUBSTITUTION_KINDS: ReadonlySet<string> = new Set<SubstitutionKind>([
  "MissingKey",
  "NullValue",
  "Recursive",
  "NotText",
]);

/** The refusal of `require` for a string that is not a heading reference. */
export function requireNotHeadingMessage(target: string): string {
  return `require takes a section heading such as \`## lib\`, got \`${target}\``;
}

/** The refusal of a library that requires itself while it loads. */
export function requireCycleMessage(reference: string): string {
  return `require cycle: \`${reference}\` is still loading`;
}

/**
 * The host side of the Engine Lua for one entry: `H(op, ...)`, one host function for every
 * operation (one host function per VM is cheaper to install than one per operation).
 */
function engineHost(entry: Entry): HostFunction {
  const { ctx } = entry;
  const bytecode = engineLuaBytecode(ctx.runtime);
  const reference = (call: HostCall, index: number): string =>
    ctx.prompt.sections[Number(call.integer(index))]?.reference ?? "";
  return (call) => {
    const op = call.text(1);
    switch (op) {
      case "template":
        return [templateForLua(entry.prose)];
      case "fail": {
        const kind = call.text(2) ?? "";
        const part = entry.prose[Number(call.integer(3) ?? 0) - 1];
        const placeholder = typeof part === "object" ? part.text : "{{ ? }}";
        if (SUBSTITUTION_KINDS.has(kind)) {
          ctx.emit(entry.source, "prose_render_failed", { substitution: kind as SubstitutionKind });
        }
        throw argumentError(
          substitutionMessage(kind as SubstitutionKind, placeholder, call.text(4) ?? undefined),
        );
      }
      case "refuse_prose":
        throw argumentError(PROSE_READ_ONLY_MESSAGE);
      case "refuse_argv":
        throw argumentError(ARGV_FROZEN_MESSAGE);
      case "lookup":
        return requireLookup(entry, call);
      case "started": {
        const library = reference(call, 2);
        entry.loading.push(library);
        ctx.emit(entry.source, "library_load_started", { library });
        return [];
      }
      case "finished": {
        const library = reference(call, 2);
        entry.loading.pop();
        const type = call.boolean(3) ? "library_load_succeeded" : "library_load_failed";
        ctx.emit(entry.source, type, { library });
        return [];
      }
      case "cycle":
        throw argumentError(requireCycleMessage(reference(call, 2)));
      case "code": {
        const part = call.text(2) ?? "";
        if (!Object.hasOwn(ENGINE_LUA_PARTS, part)) throw new Error(`no Engine Lua part ${part}`);
        return [bytecode.parts[part as EngineLuaPart]];
      }
      default:
        throw new Error(`unknown Engine Lua operation ${String(op)}`);
    }
  };
}

/** `require`'s lookup: the library's key (section index) and its blocks' bytecode. */
function requireLookup(entry: Entry, call: HostCall): LuaValue[] {
  const { ctx } = entry;
  if (call.type(2) !== "string") throw argumentError(SECTION_TARGET_NOT_STRING);
  const target = call.text(2) ?? "";
  if (parseHeadingReference(target) === null) {
    throw argumentError(requireNotHeadingMessage(target.trim()));
  }
  const section = ctx.tree.resolve(target, entry.section);
  if (section === null) throw argumentError(sectionNotFoundMessage(target));
  const blocks = ctx.prompt.sections[section]?.blocks ?? [];
  return [section, blocks.map((block) => block.bytecode)];
}

/**
 * Setup step 9: runs the Engine Lua core in `vm` (prose and argv served by the `_G` guard,
 * `require`) for `entry`, with the run's argv as JSON text, writable unless `argvFrozen`.
 */
export function installEngineLua(
  vm: LuaVm,
  entry: Entry,
  argvJson: string,
  argvFrozen: boolean,
): void {
  const outcome = vm.runPrivileged({
    bytecode: engineLuaBytecode(entry.ctx.runtime).core,
    chunkName: ENGINE_LUA_CHUNK_NAME,
    args: [engineHost(entry), argvJson, argvFrozen],
  });
  if (!outcome.ok) throw new Error(`the Engine's Lua setup failed: ${outcome.message}`);
}

/**
 * Reads `argv` back from the VM as JSON data (the end of the H1 pass), by json.encode's rules;
 * throws an Error with json.encode's refusal when argv is not JSON data.
 */
export function readArgvBack(vm: LuaVm): LuaJsonObject {
  const outcome = vm.runPrivileged({ source: "return (...).runvil_argv()", chunkName: "=argv" });
  if (!outcome.ok) {
    // json.encode names the root `value`; here the root is argv.
    const text = failureText(outcome.error, outcome.message);
    throw new Error(text.replace(/^json\.encode: value\b/, "argv"));
  }
  const text = outcome.values[0];
  const value = typeof text === "string" ? decodeJsonValue(text) : null;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new Error("argv must be a table of named fields");
  }
  return value;
}

/** The message of a raised value: an error value's `message` field, else the failure's text. */
function failureText(raised: LuaValue, fallback: string): string {
  if (raised !== null && typeof raised === "object" && !Array.isArray(raised)) {
    const message = (raised as { readonly message?: LuaValue }).message;
    if (typeof message === "string") return message;
  }
  return fallback;
}

import { LuaOpaque, type LuaValue } from "../lua";
import { luaFloatText, luaNumberText } from "./lua-number-text";

/** What a block's return values make of a section's end (docs/design/walk.md). */
export type ScalarReturn =
  /** Nothing, or nil first: the section goes on. */
  | { readonly kind: "none" }
  /** A scalar: its text is the result. */
  | { readonly kind: "text"; readonly text: string }
  /** A value with no text form: the run fails with {@link message}. */
  | { readonly kind: "invalid"; readonly message: string };

const NONE: ScalarReturn = { kind: "none" };

/**
 * Applies the scalar return rule to a block's returned values: only the first counts; a string
 * stays as is, a number becomes its Lua text, a boolean `true`/`false`; a table, function,
 * userdata or thread is refused with `cannot return a table as a result` (the type named).
 * `firstIsFloat` says the first value is a Lua float (`5.0`), which a JavaScript number cannot.
 */
export function scalarReturn(values: readonly LuaValue[], firstIsFloat = false): ScalarReturn {
  const first = values[0];
  if (first === undefined || first === null) return NONE;
  if (typeof first === "string") return { kind: "text", text: first };
  if (typeof first === "number" && firstIsFloat) return { kind: "text", text: luaFloatText(first) };
  if (typeof first === "number" || typeof first === "bigint") {
    return { kind: "text", text: luaNumberText(first) };
  }
  if (typeof first === "boolean") return { kind: "text", text: first ? "true" : "false" };
  if (first instanceof Uint8Array) return { kind: "text", text: new TextDecoder().decode(first) };
  return { kind: "invalid", message: `cannot return a ${typeOf(first)} as a result` };
}

function typeOf(value: LuaValue): string {
  if (value instanceof LuaOpaque) return value.type;
  if (typeof value === "function") return "function";
  return "table";
}

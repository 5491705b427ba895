import type { JsonObject, JsonValue } from "@runvil/parser";
import type { LuaJsonObject, LuaJsonValue } from "../lua";

/**
 * Plain JSON data (numbers only, as JSON.parse or YAML give it) as the Lua side's JSON model,
 * where a `bigint` is an integer and a `number` a float: every integral number becomes an
 * integer.
 */
export function toLuaJson(value: JsonValue): LuaJsonValue {
  if (typeof value === "number") return Number.isSafeInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(toLuaJson);
  if (value !== null && typeof value === "object") return toLuaJsonObject(value);
  return value;
}

/** {@link toLuaJson} for an object. */
export function toLuaJsonObject(value: JsonObject): LuaJsonObject {
  const out: LuaJsonObject = {};
  for (const [key, item] of Object.entries(value)) define(out, key, toLuaJson(item));
  return out;
}

/**
 * The Lua side's JSON model as plain JSON data: integers become numbers (exact up to 2^53, the
 * nearest double beyond).
 */
export function toPlainJson(value: LuaJsonValue): JsonValue {
  if (typeof value === "bigint") return Number(value);
  if (Array.isArray(value)) return value.map(toPlainJson);
  if (value !== null && typeof value === "object") return toPlainJsonObject(value);
  return value;
}

/** {@link toPlainJson} for an object. */
export function toPlainJsonObject(value: LuaJsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [key, item] of Object.entries(value)) define(out, key, toPlainJson(item));
  return out;
}

/** Sets an own property, `__proto__` included. */
function define<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

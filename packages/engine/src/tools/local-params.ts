import type { JsonObject } from "@runvil/sdk";
import { sortNames } from "./debug-quote";
import { paramTypeMessage } from "./tool-messages";

/** One parameter of a local tool as its params table declares it. */
export interface LocalParam {
  /** The argument name. */
  readonly name: string;
  /** The type name as written (checked by {@link localToolSchema}). */
  readonly type: string;
  /** The description, when the `{type, description}` form gave one. */
  readonly description?: string;
}

const PARAM_TYPES: ReadonlySet<string> = new Set(["string", "integer", "number", "boolean"]);

/**
 * The JSON Schema of a local tool's parameters (tools chapter, "Describing parameters"):
 * `{"type":"object","properties":{...},"required":[...]}` with every parameter required and
 * both listed in sorted bytewise order, each property `{"type": t}` plus `"description"` when
 * one was given. Returns the refusal message of the first parameter (in name order) whose
 * type is not one of `string`, `integer`, `number`, `boolean` (exact, case-sensitive).
 */
export function localToolSchema(
  params: readonly LocalParam[],
):
  | { readonly ok: true; readonly schema: JsonObject }
  | { readonly ok: false; readonly message: string } {
  const byName = new Map(params.map((param) => [param.name, param]));
  const names = sortNames(byName.keys());
  const properties: JsonObject = {};
  for (const name of names) {
    const param = byName.get(name);
    if (param === undefined) continue;
    if (!PARAM_TYPES.has(param.type))
      return { ok: false, message: paramTypeMessage(name, param.type) };
    const property: JsonObject = { type: param.type };
    if (param.description !== undefined) property.description = param.description;
    Object.defineProperty(properties, name, {
      value: property,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return { ok: true, schema: { type: "object", properties, required: names } };
}

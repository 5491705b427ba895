import { Ajv, type Options, type ValidateFunction } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";

/**
 * The ajv options every dialect shares: strict mode off, so a Pack's schema with keywords ajv
 * does not know (`examples`, vendor extensions) still loads; no logging; `format` not checked
 * (ajv-formats is not bundled, and a tool checks its own formats); schemas with an `$id` are not
 * kept in the instance, so two tools may use the same `$id`; no coercion, defaults or removal,
 * so the tool gets the arguments exactly as sent.
 */
const AJV_OPTIONS: Options = {
  strict: false,
  logger: false,
  validateFormats: false,
  addUsedSchema: false,
  allErrors: false,
  coerceTypes: false,
  useDefaults: false,
  removeAdditional: false,
};

type Dialect = "draft-07" | "2019-09" | "2020-12";

interface AjvLike {
  compile(schema: object | boolean): ValidateFunction;
}

const instances = new Map<Dialect, AjvLike>();

function instanceFor(dialect: Dialect): AjvLike {
  let ajv = instances.get(dialect);
  if (ajv === undefined) {
    if (dialect === "2020-12") ajv = new Ajv2020(AJV_OPTIONS);
    else if (dialect === "2019-09") ajv = new Ajv2019(AJV_OPTIONS);
    else ajv = new Ajv(AJV_OPTIONS);
    instances.set(dialect, ajv);
  }
  return ajv;
}

/** The dialect a root `$schema` names, or undefined for one this checker does not support. */
function dialectOf(schemaUri: string): Dialect | undefined {
  if (/json-schema\.org\/draft-0[67]\/schema#?$/.test(schemaUri)) return "draft-07";
  if (/json-schema\.org\/draft\/2019-09\/schema#?$/.test(schemaUri)) return "2019-09";
  if (/json-schema\.org\/draft\/2020-12\/schema#?$/.test(schemaUri)) return "2020-12";
  return undefined;
}

/**
 * Compiles a tool's parameter schema. A schema without `$schema` is read as draft-07; a root
 * `$schema` naming draft-06, draft-07, 2019-09 or 2020-12 picks that dialect (it is dropped
 * before compiling, so `http`/`https` and a missing `#` do not matter). Throws when ajv cannot
 * compile the schema: not an object or boolean, an unsupported `$schema`, a schema that breaks
 * its meta-schema, a `$ref` that does not resolve, or an `$async` schema.
 */
export function compileParameterSchema(schema: unknown): ValidateFunction {
  if (typeof schema === "boolean") return instanceFor("draft-07").compile(schema);
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    throw new TypeError("schema must be object or boolean");
  }
  let dialect: Dialect = "draft-07";
  let body = schema as Record<string, unknown>;
  if ("$schema" in body) {
    const { $schema, ...rest } = body;
    const named = typeof $schema === "string" ? dialectOf($schema) : undefined;
    if (named === undefined) throw new TypeError(`unsupported $schema ${JSON.stringify($schema)}`);
    dialect = named;
    body = rest;
  }
  if (body.$async === true) throw new TypeError("$async schemas are not supported");
  return instanceFor(dialect).compile(body);
}

import type { Options, ValidateFunction } from "ajv";

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

/** The ajv classes, one per dialect, as the dynamic imports give them. */
type AjvClasses = Readonly<Record<Dialect, new (options: Options) => AjvLike>>;

/**
 * Compiles a tool's parameter schema (see {@link loadParameterSchemaCompiler}). A schema without
 * `$schema` is read as draft-07; a root `$schema` naming draft-06, draft-07, 2019-09 or 2020-12
 * picks that dialect (it is dropped before compiling, so `http`/`https` and a missing `#` do not
 * matter). Throws when ajv cannot compile the schema: not an object or boolean, an unsupported
 * `$schema`, a schema that breaks its meta-schema, a `$ref` that does not resolve, or an
 * `$async` schema.
 */
export type ParameterSchemaCompiler = (schema: unknown) => ValidateFunction;

async function importAjv(): Promise<AjvClasses> {
  const [draft07, draft2019, draft2020] = await Promise.all([
    import("ajv"),
    import("ajv/dist/2019.js"),
    import("ajv/dist/2020.js"),
  ]);
  return { "draft-07": draft07.Ajv, "2019-09": draft2019.Ajv2019, "2020-12": draft2020.Ajv2020 };
}

let loaded: ParameterSchemaCompiler | undefined;
let loading: Promise<ParameterSchemaCompiler> | undefined;

/**
 * Loads ajv (once per process; a failed load is retried by the next call) and resolves to the
 * schema compiler. ajv is imported here, at the first schema check, and not when the Harness
 * is imported: loading it costs every `runvil run` several milliseconds, most of which never
 * call a tool (docs/design/performance.md).
 */
export function loadParameterSchemaCompiler(): Promise<ParameterSchemaCompiler> {
  if (loading === undefined) {
    const attempt = importAjv().then((classes) => {
      loaded = compilerOver(classes);
      return loaded;
    });
    loading = attempt;
    attempt.catch(() => {
      if (loading === attempt) loading = undefined;
    });
  }
  return loading;
}

/** The schema compiler once {@link loadParameterSchemaCompiler} has loaded it, else undefined. */
export function parameterSchemaCompiler(): ParameterSchemaCompiler | undefined {
  return loaded;
}

function compilerOver(classes: AjvClasses): ParameterSchemaCompiler {
  const instances = new Map<Dialect, AjvLike>();
  const instanceFor = (dialect: Dialect): AjvLike => {
    let ajv = instances.get(dialect);
    if (ajv === undefined) {
      ajv = new classes[dialect](AJV_OPTIONS);
      instances.set(dialect, ajv);
    }
    return ajv;
  };
  return (schema) => compileWith(instanceFor, schema);
}

/** The dialect a root `$schema` names, or undefined for one this checker does not support. */
function dialectOf(schemaUri: string): Dialect | undefined {
  if (/json-schema\.org\/draft-0[67]\/schema#?$/.test(schemaUri)) return "draft-07";
  if (/json-schema\.org\/draft\/2019-09\/schema#?$/.test(schemaUri)) return "2019-09";
  if (/json-schema\.org\/draft\/2020-12\/schema#?$/.test(schemaUri)) return "2020-12";
  return undefined;
}

/** One compile of {@link ParameterSchemaCompiler} on the dialects' ajv instances. */
function compileWith(
  instanceFor: (dialect: Dialect) => AjvLike,
  schema: unknown,
): ValidateFunction {
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

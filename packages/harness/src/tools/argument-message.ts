import type { ErrorObject } from "ajv";
import { type ArgumentStep, argumentSteps, renderArgumentPath } from "./argument-path";

/** The words a JSON Schema type reads as in a message. */
const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: "a string",
  number: "a number",
  integer: "an integer",
  boolean: "a boolean",
  object: "an object",
  array: "an array",
  null: "null",
};

function typeWords(types: readonly string[]): string {
  const words = [...new Set(types)].map((type) => TYPE_WORDS[type] ?? type);
  if (words.length <= 1) return words[0] ?? "";
  return `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}`;
}

function typesOf(params: Record<string, unknown>): string[] {
  const { type } = params;
  if (Array.isArray(type)) return type.map(String);
  return String(type).split(",");
}

function plural(count: unknown, one: string, many: string): string {
  return `${String(count)} ${count === 1 ? one : many}`;
}

/** What a failing keyword says about the value: the end of `argument \`x\` must ...`. */
function valueRule(error: ErrorObject, earlier: readonly ErrorObject[]): string | undefined {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "type":
      return `must be ${typeWords(typesOf(params))}`;
    case "enum":
      return `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    case "const":
      return `must be ${JSON.stringify(params.allowedValue)}`;
    case "minLength":
      return `must be at least ${plural(params.limit, "character", "characters")} long`;
    case "maxLength":
      return `must be at most ${plural(params.limit, "character", "characters")} long`;
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return `must be ${String(params.comparison)} ${String(params.limit)}`;
    case "multipleOf":
      return `must be a multiple of ${String(params.multipleOf)}`;
    case "pattern":
      return `must match the pattern ${JSON.stringify(params.pattern)}`;
    case "minItems":
      return `must have at least ${plural(params.limit, "item", "items")}`;
    case "maxItems":
      return `must have at most ${plural(params.limit, "item", "items")}`;
    case "uniqueItems":
      return "must not repeat items";
    case "minProperties":
      return `must have at least ${plural(params.limit, "property", "properties")}`;
    case "maxProperties":
      return `must have at most ${plural(params.limit, "property", "properties")}`;
    case "anyOf":
    case "oneOf":
      return branchTypes(error, earlier);
    default:
      return undefined;
  }
}

/**
 * For an `anyOf`/`oneOf` whose every branch failed on its type at the same place (such as
 * `anyOf: [{ type: string }, { type: null }]`), the union of those types; else undefined.
 */
function branchTypes(error: ErrorObject, earlier: readonly ErrorObject[]): string | undefined {
  const prefix = `${error.schemaPath}/`;
  const branches = earlier.filter((e) => e.schemaPath.startsWith(prefix));
  if (branches.length === 0) return undefined;
  const types: string[] = [];
  for (const branch of branches) {
    if (branch.keyword !== "type" || branch.instancePath !== error.instancePath) return undefined;
    types.push(...typesOf(branch.params as Record<string, unknown>));
  }
  return `must be ${typeWords(types)}`;
}

function child(steps: readonly ArgumentStep[], name: unknown): string {
  return renderArgumentPath([...steps, String(name)]);
}

/**
 * The model-safe message for arguments that failed a tool's schema, from ajv's errors (ajv
 * stops at the first failing keyword, whose error comes last). Every message starts with the
 * tool's wire name:
 *
 * - a missing required property: `{wire}: missing {path} argument` (`web_fetch: missing url
 *   argument`; nested `missing options.limit argument`);
 * - a missing dependent property: `{wire}: missing {path} argument (required with {other})`;
 * - an extra property: ``{wire}: unexpected argument `{path}` ``;
 * - a value rule: ``{wire}: argument `{path}` must be a string`` (also `must be an integer or
 *   null`, `must be one of "a", "b"`, `must be >= 1`, `must be at least 3 characters long`,
 *   `must match the pattern "^a"`, `must have at most 2 items`, ...), or for the arguments
 *   object itself `{wire}: the arguments must ...`;
 * - any other keyword (`not`, `if`, a `false` schema, a mixed `anyOf`):
 *   ``{wire}: argument `{path}` does not match the tool's schema`` (`the arguments do not ...`).
 *
 * Paths join plain property names with `.`, show array indexes as `[n]` and other names as
 * JSON strings in brackets. docs/design/tool-arguments.md lists every form.
 */
export function argumentFailureMessage(
  wire: string,
  args: unknown,
  errors: readonly ErrorObject[],
): string {
  const error = errors[errors.length - 1];
  if (error === undefined) return `${wire}: the arguments do not match the tool's schema`;
  const params = error.params as Record<string, unknown>;
  const steps = argumentSteps(args, error.instancePath);
  switch (error.keyword) {
    case "required":
      return `${wire}: missing ${child(steps, params.missingProperty)} argument`;
    case "dependencies":
    case "dependentRequired":
      return `${wire}: missing ${child(steps, params.missingProperty)} argument (required with ${child(steps, params.property)})`;
    case "additionalProperties":
      return `${wire}: unexpected argument \`${child(steps, params.additionalProperty)}\``;
    case "unevaluatedProperties":
      return `${wire}: unexpected argument \`${child(steps, params.unevaluatedProperty)}\``;
    case "propertyNames":
      return `${wire}: unexpected argument \`${child(steps, params.propertyName)}\``;
  }
  const subject =
    steps.length === 0 ? "the arguments" : `argument \`${renderArgumentPath(steps)}\``;
  const rule = valueRule(error, errors.slice(0, -1));
  if (rule !== undefined) return `${wire}: ${subject} ${rule}`;
  const verb = steps.length === 0 ? "do" : "does";
  return `${wire}: ${subject} ${verb} not match the tool's schema`;
}

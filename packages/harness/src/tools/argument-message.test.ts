import type { JsonObject, JsonValue } from "@runvil/sdk";
import { describe, expect, it } from "vitest";
import { argumentFailureMessage } from "./argument-message";
import { loadParameterSchemaCompiler } from "./schema-compiler";

const compileParameterSchema = await loadParameterSchemaCompiler();

/** The message for `args` against `schema`, or "valid". */
function check(schema: JsonValue, args: JsonObject, wire = "kit_tool"): string {
  const validate = compileParameterSchema(schema);
  if (validate(args)) return "valid";
  return argumentFailureMessage(wire, args, validate.errors ?? []);
}

const FETCH = { type: "object", properties: { url: { type: "string" } }, required: ["url"] };

describe("argumentFailureMessage", () => {
  it("names a missing required argument the way the chapter does", () => {
    expect(check(FETCH, {}, "web_fetch")).toBe("web_fetch: missing url argument");
    expect(check(FETCH, { url: "https://www.lua.org/" }, "web_fetch")).toBe("valid");
  });

  it("names a nested missing argument by its path", () => {
    const schema = {
      type: "object",
      properties: {
        options: { type: "object", required: ["limit"] },
        items: { type: "array", items: { type: "object", required: ["first name"] } },
      },
    };
    expect(check(schema, { options: {} })).toBe("kit_tool: missing options.limit argument");
    expect(check(schema, { items: [{}] })).toBe(
      'kit_tool: missing items[0]["first name"] argument',
    );
  });

  it("names a missing dependent argument and what needs it", () => {
    expect(check({ type: "object", dependencies: { start: ["end"] } }, { start: 1 })).toBe(
      "kit_tool: missing end argument (required with start)",
    );
    const draft2020 = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      dependentRequired: { start: ["end"] },
    };
    expect(check(draft2020, { start: 1 })).toBe(
      "kit_tool: missing end argument (required with start)",
    );
  });

  it("names an unexpected argument", () => {
    const schema = { type: "object", properties: { a: {} }, additionalProperties: false };
    expect(check(schema, { a: 1, b: 2 })).toBe("kit_tool: unexpected argument `b`");
    const names = { type: "object", propertyNames: { pattern: "^[a-z]+$" } };
    expect(check(names, { Bad: 1 })).toBe("kit_tool: unexpected argument `Bad`");
    const unevaluated = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { a: {} },
      unevaluatedProperties: false,
    };
    expect(check(unevaluated, { z: 1 })).toBe("kit_tool: unexpected argument `z`");
  });

  it("says which type an argument must have", () => {
    expect(check(FETCH, { url: 3 }, "web_fetch")).toBe(
      "web_fetch: argument `url` must be a string",
    );
    const schema = {
      type: "object",
      properties: {
        n: { type: "integer" },
        maybe: { type: ["string", "null"] },
        any: { type: ["number", "boolean", "array"] },
        list: { type: "array", items: { type: "object" } },
      },
    };
    expect(check(schema, { n: 1.5 })).toBe("kit_tool: argument `n` must be an integer");
    expect(check(schema, { maybe: 1 })).toBe("kit_tool: argument `maybe` must be a string or null");
    expect(check(schema, { any: "x" })).toBe(
      "kit_tool: argument `any` must be a number, a boolean or an array",
    );
    expect(check(schema, { list: [{}, 2] })).toBe("kit_tool: argument `list[1]` must be an object");
  });

  it("reads an anyOf of types as one type rule", () => {
    const schema = {
      type: "object",
      properties: { id: { anyOf: [{ type: "string" }, { type: "integer" }] } },
    };
    expect(check(schema, { id: true })).toBe(
      "kit_tool: argument `id` must be a string or an integer",
    );
  });

  it("words every value rule", () => {
    const schema = {
      type: "object",
      properties: {
        mode: { enum: ["fast", "slow", 3] },
        fixed: { const: { a: 1 } },
        short: { type: "string", maxLength: 1 },
        long: { type: "string", minLength: 3 },
        low: { minimum: 1 },
        high: { exclusiveMaximum: 10 },
        step: { multipleOf: 5 },
        word: { type: "string", pattern: "^[a-z]+$" },
        few: { type: "array", maxItems: 2 },
        many: { type: "array", minItems: 1 },
        once: { type: "array", uniqueItems: true },
        small: { type: "object", maxProperties: 1 },
        big: { type: "object", minProperties: 2 },
      },
    };
    const cases: [JsonObject, string][] = [
      [{ mode: "medium" }, 'argument `mode` must be one of "fast", "slow", 3'],
      [{ fixed: { a: 2 } }, 'argument `fixed` must be {"a":1}'],
      [{ short: "ab" }, "argument `short` must be at most 1 character long"],
      [{ long: "ab" }, "argument `long` must be at least 3 characters long"],
      [{ low: 0 }, "argument `low` must be >= 1"],
      [{ high: 10 }, "argument `high` must be < 10"],
      [{ step: 7 }, "argument `step` must be a multiple of 5"],
      [{ word: "A" }, 'argument `word` must match the pattern "^[a-z]+$"'],
      [{ few: [1, 2, 3] }, "argument `few` must have at most 2 items"],
      [{ many: [] }, "argument `many` must have at least 1 item"],
      [{ once: [1, 1] }, "argument `once` must not repeat items"],
      [{ small: { a: 1, b: 2 } }, "argument `small` must have at most 1 property"],
      [{ big: {} }, "argument `big` must have at least 2 properties"],
    ];
    for (const [args, message] of cases) expect(check(schema, args)).toBe(`kit_tool: ${message}`);
  });

  it("speaks of the arguments themselves for a rule on the whole object", () => {
    expect(check({ type: "object", maxProperties: 0 }, { a: 1 })).toBe(
      "kit_tool: the arguments must have at most 0 properties",
    );
    expect(check({ type: "array" }, {})).toBe("kit_tool: the arguments must be an array");
    expect(check(false, {})).toBe("kit_tool: the arguments do not match the tool's schema");
  });

  it("falls back to a general form for other keywords", () => {
    const schema: JsonValue = {
      type: "object",
      properties: {
        not: { not: { type: "string" } },
        mixed: { anyOf: [{ type: "string" }, { type: "number", minimum: 3 }] },
      },
    };
    expect(check(schema, { not: "x" })).toBe(
      "kit_tool: argument `not` does not match the tool's schema",
    );
    expect(check(schema, { mixed: 1 })).toBe(
      "kit_tool: argument `mixed` does not match the tool's schema",
    );
    expect(argumentFailureMessage("kit_tool", {}, [])).toBe(
      "kit_tool: the arguments do not match the tool's schema",
    );
  });
});

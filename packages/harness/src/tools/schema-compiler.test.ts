import { describe, expect, it } from "vitest";
import { loadParameterSchemaCompiler, parameterSchemaCompiler } from "./schema-compiler";

const compileParameterSchema = await loadParameterSchemaCompiler();

describe("loadParameterSchemaCompiler", () => {
  it("loads ajv once and then gives the same compiler, also without waiting", async () => {
    expect(await loadParameterSchemaCompiler()).toBe(compileParameterSchema);
    expect(parameterSchemaCompiler()).toBe(compileParameterSchema);
  });
});

describe("the parameter schema compiler", () => {
  it("loads schemas with keywords ajv does not know (strict mode off)", () => {
    const validate = compileParameterSchema({
      type: "object",
      properties: { q: { type: "string", examples: ["lua"], "x-vendor": true } },
      "x-extra": { anything: 1 },
    });
    expect(validate({ q: "lua" })).toBe(true);
  });

  it("does not check formats", () => {
    const validate = compileParameterSchema({
      type: "object",
      properties: { url: { type: "string", format: "uri" } },
    });
    expect(validate({ url: "not a uri" })).toBe(true);
  });

  it("picks the dialect a root $schema names", () => {
    const tuple2020 = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "array",
      prefixItems: [{ type: "string" }],
      items: false,
    };
    expect(compileParameterSchema(tuple2020)(["a"])).toBe(true);
    expect(compileParameterSchema(tuple2020)(["a", "b"])).toBe(false);
    for (const $schema of [
      "http://json-schema.org/draft-07/schema#",
      "https://json-schema.org/draft-07/schema",
      "http://json-schema.org/draft-06/schema#",
      "https://json-schema.org/draft/2019-09/schema",
    ]) {
      expect(compileParameterSchema({ $schema, type: "object" })({})).toBe(true);
    }
  });

  it("lets two tools use the same $id", () => {
    const schema = () => ({ $id: "https://acme.test/args", type: "object", required: ["a"] });
    expect(compileParameterSchema(schema())({ a: 1 })).toBe(true);
    expect(compileParameterSchema(schema())({})).toBe(false);
  });

  it("accepts boolean schemas", () => {
    expect(compileParameterSchema(true)({ a: 1 })).toBe(true);
    expect(compileParameterSchema(false)({})).toBe(false);
  });

  it("throws for a schema it cannot compile", () => {
    expect(() => compileParameterSchema("scalar")).toThrow("schema must be object or boolean");
    expect(() => compileParameterSchema(["a"])).toThrow("schema must be object or boolean");
    expect(() => compileParameterSchema({ type: "strin" })).toThrow("schema is invalid");
    expect(() => compileParameterSchema({ $ref: "#/nope" })).toThrow("can't resolve reference");
    expect(() =>
      compileParameterSchema({ $schema: "http://json-schema.org/draft-04/schema#" }),
    ).toThrow('unsupported $schema "http://json-schema.org/draft-04/schema#"');
    expect(() => compileParameterSchema({ $async: true, type: "object" })).toThrow(
      "$async schemas are not supported",
    );
  });
});

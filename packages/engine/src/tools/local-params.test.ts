import { describe, expect, it } from "vitest";
import { localToolSchema } from "./local-params";

describe("localToolSchema", () => {
  it("builds one required string property", () => {
    expect(localToolSchema([{ name: "value", type: "string" }])).toEqual({
      ok: true,
      schema: { type: "object", properties: { value: { type: "string" } }, required: ["value"] },
    });
  });

  it("lists properties and required names in sorted bytewise order, with descriptions", () => {
    const result = localToolSchema([
      { name: "query", type: "string" },
      { name: "limit", type: "integer", description: "maximum hits" },
    ]);
    expect(result.ok && JSON.stringify(result.schema)).toBe(
      '{"type":"object","properties":{"limit":{"type":"integer","description":"maximum hits"},"query":{"type":"string"}},"required":["limit","query"]}',
    );
  });

  it("sorts eight names as the chapter shows", () => {
    const names = ["zulu", "alpha", "mike", "bravo", "yankee", "charlie", "oscar", "delta"];
    const result = localToolSchema(names.map((name) => ({ name, type: "string" })));
    expect(result.ok && result.schema.required).toEqual([
      "alpha",
      "bravo",
      "charlie",
      "delta",
      "mike",
      "oscar",
      "yankee",
      "zulu",
    ]);
  });

  it("gives an empty schema for no parameters", () => {
    expect(localToolSchema([])).toEqual({
      ok: true,
      schema: { type: "object", properties: {}, required: [] },
    });
  });

  it("accepts the four type names exactly and refuses the first other one in name order", () => {
    for (const type of ["string", "integer", "number", "boolean"]) {
      expect(localToolSchema([{ name: "x", type }]).ok).toBe(true);
    }
    expect(
      localToolSchema([
        { name: "b", type: "Bool" },
        { name: "a", type: "String" },
      ]),
    ).toEqual({
      ok: false,
      message:
        'tools.offer_local param "a" has unsupported type "String": expected "string", "integer", "number", or "boolean"',
    });
  });

  it("keeps a parameter named __proto__ as an own property", () => {
    const result = localToolSchema([{ name: "__proto__", type: "string" }]);
    expect(result.ok && Object.keys(result.schema.properties as object)).toEqual(["__proto__"]);
  });
});

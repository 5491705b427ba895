import type { ArgDeclaration } from "@runvil/parser";
import { describe, expect, it } from "vitest";
import { checkRequiredArgs, deriveArgv } from "./derive-argv";

function arg(name: string, settings: Partial<ArgDeclaration> = {}): ArgDeclaration {
  return {
    name,
    description: undefined,
    required: false,
    default: undefined,
    line: 6,
    ...settings,
  };
}

describe("deriveArgv", () => {
  it("takes a JSON object as is, nulls included", () => {
    expect(deriveArgv(' {"topic":"tides","n":2,"x":null} ', [])).toEqual({
      topic: "tides",
      n: 2n,
      x: null,
    });
  });

  it("gives other text to the first declared arg", () => {
    expect(deriveArgv("ada", [arg("name"), arg("style")])).toEqual({ name: "ada" });
    expect(deriveArgv("[1, 2]", [arg("name")])).toEqual({ name: "[1, 2]" });
    expect(deriveArgv("{not json", [arg("name")])).toEqual({ name: "{not json" });
  });

  it("starts empty with no declarations, or with an empty argument string", () => {
    expect(deriveArgv("hi", [])).toEqual({});
    expect(deriveArgv("", [arg("name")])).toEqual({});
  });

  it("fills declared defaults that argv lacks, keeping given values and undeclared keys", () => {
    const declared = [
      arg("name"),
      arg("style", { default: { tone: "warm" } }),
      arg("n", { default: null }),
    ];
    expect(deriveArgv('{"style":"cold","extra":1}', declared)).toEqual({
      style: "cold",
      extra: 1n,
      n: null,
    });
    expect(deriveArgv("ada", declared)).toEqual({ name: "ada", style: { tone: "warm" }, n: null });
    expect(deriveArgv("", [arg("n", { default: 2 }), arg("f", { default: 2.5 })])).toEqual({
      n: 2n,
      f: 2.5,
    });
  });
});

describe("checkRequiredArgs", () => {
  it("names the first required arg that is absent or null", () => {
    const declared = [arg("topic", { required: true }), arg("depth", { required: true })];
    expect(checkRequiredArgs({ depth: 1n }, declared)).toBe(
      "argv is missing the required arg `topic`",
    );
    expect(checkRequiredArgs({ topic: "x", depth: null }, declared)).toBe(
      "argv is missing the required arg `depth`",
    );
    expect(checkRequiredArgs({ topic: "x", depth: 0n }, declared)).toBeUndefined();
  });
});

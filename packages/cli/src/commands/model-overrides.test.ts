import { describe, expect, it } from "vitest";
import { parseModelOverrides } from "./model-overrides";

describe("parseModelOverrides", () => {
  it("reads role=model pairs", () => {
    expect(parseModelOverrides(["writer=openai:gpt-5-mini", "critic=local:qwen3"])).toEqual({
      ok: true,
      models: { writer: "openai:gpt-5-mini", critic: "local:qwen3" },
    });
    expect(parseModelOverrides([])).toEqual({ ok: true, models: {} });
  });

  it("refuses a value that is not role=model, or a role given twice", () => {
    for (const bad of ["writer", "=x", "writer=", "1st=x", "a b=x"]) {
      expect(parseModelOverrides([bad])).toEqual({
        ok: false,
        message: `--model takes role=model, such as writer=openai:gpt-5-mini; got ${JSON.stringify(bad)}`,
      });
    }
    expect(parseModelOverrides(["w=a", "w=b"])).toEqual({
      ok: false,
      message: "--model names role w twice",
    });
  });
});

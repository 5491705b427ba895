import { describe, expect, it } from "vitest";
import { modelPrompt, runModelPrompt, succeeded } from "./test-support/model-run";

const READ =
  "local function read() local ok, v = pcall(function() return sys.model end) return ok and v or 'unknown' end";
const GRAB = "tools.offer_local('grab', 'Grab', {}, function() return 'g' end)";

async function result(lua: string, options: { h1?: string; declare?: string } = {}) {
  return succeeded(
    await runModelPrompt(
      modelPrompt(`${READ}\n${GRAB}\n${lua}`, {
        ...(options.h1 === undefined ? {} : { h1: options.h1 }),
        roles: options.declare ?? "  writer: {}\n  critic: {}",
      }),
      { models: { bind: { writer: "w-model", critic: "c-model" } } },
    ),
  );
}

describe("sys.model", () => {
  it("appears at the section's first local tool call and stays fixed", async () => {
    expect(
      await result(
        "models.use('writer') local a = read() tools.call('grab') local b = read() models.use('critic') tools.call('grab') return a .. '|' .. b .. '|' .. read()",
      ),
    ).toBe("unknown|w-model|w-model");
  });

  it("reads the prompt-wide default when the section chose none", async () => {
    expect(
      await result("tools.call('grab') return read()", { h1: "models.default('critic')" }),
    ).toBe("c-model");
  });

  it("never appears when the section had no model at its first tool call", async () => {
    expect(
      await result("tools.call('grab') models.use('writer') tools.call('grab') return read()"),
    ).toBe("unknown");
  });

  it("is not set by a refused call", async () => {
    expect(
      await result(
        "models.use('writer') pcall(tools.call, 'nope') local a = read() tools.call('grab') return a .. '|' .. read()",
      ),
    ).toBe("unknown|w-model");
  });

  it("is set by a call inside a handler's own tool call too, once", async () => {
    expect(
      await result(
        "models.use('writer') tools.offer_local('outer', 'Outer', {}, function() return read() .. tools.call('grab') end) return tools.call('outer')",
      ),
    ).toBe("w-modelg");
  });

  it("works in the H1 pass", async () => {
    const run = await runModelPrompt(
      modelPrompt("return var.m", {
        h1: `models.default('writer')\n${GRAB}\ntools.call('grab')\nvar.m = sys.model`,
      }),
      { models: { bind: { writer: "w-model" } } },
    );
    expect(succeeded(run)).toBe("w-model");
  });

  it("raises unknown sys field 'model' before the first call", async () => {
    expect(
      await result("local ok, err = pcall(function() return sys.model end) return tostring(err)", {
        h1: "models.default('writer')",
      }),
    ).toBe("runtime error: unknown sys field 'model'");
  });
});

import { describe, expect, it } from "vitest";
import { body, lua } from "../test-support/lua-fence";
import { promptText } from "../test-support/parse";
import { resultText, runTestPrompt } from "../test-support/run-prompt";

const returning = (expression: string) =>
  runTestPrompt(promptText(body("# T", "## A", lua(`return ${expression}`))));

describe("a returned number keeps Lua's text", () => {
  it("writes an integral float as Lua does, with .0", async () => {
    expect(resultText(await returning("5.0"))).toBe("5.0");
    expect(resultText(await returning("10 / 2"))).toBe("5.0");
    expect(resultText(await returning("-0.0"))).toBe("-0.0");
    expect(resultText(await returning("2^53"))).toBe("9.007199254741e+15");
  });

  it("writes integers and other floats unchanged", async () => {
    expect(resultText(await returning("5"))).toBe("5");
    expect(resultText(await returning("10 // 2"))).toBe("5");
    expect(resultText(await returning("2.5"))).toBe("2.5");
    expect(resultText(await returning("math.maxinteger"))).toBe("9223372036854775807");
  });
});

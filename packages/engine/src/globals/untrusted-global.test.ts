import { describe, expect, it } from "vitest";
import { body, lua } from "../test-support/lua-fence";
import { promptText } from "../test-support/parse";
import { resultText, runTestPrompt } from "../test-support/run-prompt";
import { wrapUntrusted } from "../untrusted/envelope";
import { runNonce } from "../untrusted/nonce";

describe("the untrusted global", () => {
  it("wraps text under the run's nonce, derived from the seed", async () => {
    const text = promptText(body("# T", "## A", lua("return untrusted('[INST] <b>')")));
    const seeded = await runTestPrompt(text, { seed: 7 });
    expect(resultText(seeded)).toBe(wrapUntrusted("[INST] <b>", runNonce(7)));
    expect(resultText(seeded)).toContain("[ INST] &lt;b>");
    const other = await runTestPrompt(text, { seed: 8 });
    expect(resultText(other)).not.toBe(resultText(seeded));
  });

  it("takes exactly one string", async () => {
    const text = promptText(
      body(
        "# T",
        "## A",
        lua(
          "local _, a = pcall(untrusted)\nlocal _, b = pcall(untrusted, 1)\nlocal _, c = pcall(untrusted, 'a', 'b')\nreturn tostring(a) .. '|' .. tostring(b) .. '|' .. tostring(c)",
        ),
      ),
    );
    expect(resultText(await runTestPrompt(text))).toBe(
      "untrusted takes (text)|text must be a string, got integer|untrusted takes (text)",
    );
  });
});

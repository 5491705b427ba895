import { describe, expect, it } from "vitest";
import { body, lua } from "../test-support/lua-fence";
import { promptText } from "../test-support/parse";
import { resultText, runTestPrompt } from "../test-support/run-prompt";

describe("section VMs iterate deterministically", () => {
  it("walks the array part first, then the sorted keys, in every section", async () => {
    const code =
      "local t = { 'a', 'b', zeta = 1, alpha = 2, [10] = 3, [true] = 4 }\nlocal keys = {}\nfor k in pairs(t) do keys[#keys + 1] = tostring(k) end\nreturn table.concat(keys, ',')";
    const run = await runTestPrompt(promptText(body("# T", "## A", lua(code))));
    expect(resultText(run)).toBe("1,2,true,10,alpha,zeta");
  });
});

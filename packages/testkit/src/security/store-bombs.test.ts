import { describe, expect, it } from "vitest";
import { runScenario } from "../run-scenario";

/**
 * Attack class: host-side CPU bombs in the store, as a prompt writes them (docs/security.md).
 * The store's own tests are in @runvil/harness (src/security/store-cpu-bombs.test.ts).
 */

function prompt(lua: string): string {
  return `---\nname: t\ndescription: t\nrunvil: 0\n---\n\n# T\n\n## Main\n\n\`\`\`lua\n${lua}\n\`\`\`\n`;
}

describe("security: store bombs from Lua", () => {
  it("answers store.glob(string.rep('*a', 12) .. '*b') against a 200-character name", async () => {
    const r = await runScenario({
      prompt: prompt(
        "store.write(string.rep('a', 200), 'x')\nreturn #store.glob(string.rep('*a', 12) .. '*b') .. '|' .. #store.glob(string.rep('*a', 12) .. '*')",
      ),
    });
    expect(r.outcome).toBe("succeeded");
    expect(r.result).toBe("0|1");
  });

  it("counts a 16 KiB anchor in a 1 MiB file for store.edit", async () => {
    const r = await runScenario({
      prompt: prompt(
        "store.write('big.txt', string.rep('a', 1024 * 1024))\nlocal ok, err = pcall(store.edit, 'big.txt', string.rep('a', 16 * 1024), 'b')\nreturn err.reason .. '|' .. err.count",
      ),
    });
    expect(r.outcome).toBe("succeeded");
    expect(r.result).toBe(`anchor_not_unique|${1024 * 1024 - 16 * 1024 + 1}`);
  });
});

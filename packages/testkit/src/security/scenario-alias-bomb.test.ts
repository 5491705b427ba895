import { describe, expect, it } from "vitest";
import { ScenarioFormatError } from "../format-error";
import { loadScenarioFile } from "../load-scenarios";

/**
 * Attack class: a YAML alias bomb in a scenario file (docs/security.md). The yaml library's
 * own guard refuses it (`maxAliasCount`); the frontmatter's guard is the parser's.
 */

describe("security: YAML alias bomb in a scenario file", () => {
  it("refuses a billion laughs as a format error", () => {
    const lines = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"];
    const names = "bcdefghi";
    for (let i = 0; i < names.length; i++) {
      const previous = i === 0 ? "a" : names[i - 1];
      lines.push(`${names[i]}: &${names[i]} [${Array(9).fill(`*${previous}`).join(", ")}]`);
    }
    const text = `${lines.map((line) => `x${line}`).join("\n")}\ncases: []\n`;
    let thrown: unknown;
    try {
      loadScenarioFile({ text, path: "bomb.yaml" });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ScenarioFormatError);
    expect((thrown as ScenarioFormatError).issues).toEqual([
      {
        file: "bomb.yaml",
        keyPath: "",
        message: "invalid YAML: Excessive alias count indicates a resource exhaustion attack",
      },
    ]);
  });
});

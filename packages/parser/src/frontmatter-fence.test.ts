import { describe, expect, it } from "vitest";
import { findFrontmatter } from "./frontmatter-fence";
import { Lines } from "./lines";

describe("findFrontmatter", () => {
  it("finds the YAML between `---` on line 1 and the closing `---`", () => {
    expect(findFrontmatter(new Lines("---\nname: x\nrunvil: 0\n---\n# T\n"))).toEqual({
      ok: true,
      fence: { closeLine: 4, yaml: "name: x\nrunvil: 0\n" },
    });
  });

  it("accepts trailing spaces and tabs on the fences, as remark-frontmatter does", () => {
    const found = findFrontmatter(new Lines("--- \t\nname: x\n---  \n"));
    expect(found.ok && found.fence.closeLine).toBe(3);
  });

  it("accepts an empty frontmatter", () => {
    expect(findFrontmatter(new Lines("---\n---\n"))).toEqual({
      ok: true,
      fence: { closeLine: 2, yaml: "" },
    });
  });

  it("does not take `----` as a fence", () => {
    const found = findFrontmatter(new Lines("---\na: 1\n----\n---\n"));
    expect(found.ok && found.fence.closeLine).toBe(4);
  });

  it("requires `---` on line 1", () => {
    const message =
      "invalid frontmatter: a prompt must start with YAML frontmatter: `---` on line 1, then `name`, `description` and `runvil: 0`, then `---` (line 1)";
    for (const input of ["# Title\n", "\n---\nname: x\n---\n", "", " ---\n---\n", "----\n---\n"]) {
      expect(findFrontmatter(new Lines(input))).toEqual({
        ok: false,
        error: { kind: "Frontmatter", message, line: 1 },
      });
    }
  });

  it("requires a closing `---`", () => {
    const expected = {
      ok: false,
      error: {
        kind: "Frontmatter",
        message:
          "invalid frontmatter: the frontmatter opened on line 1 is never closed with `---` (line 1)",
        line: 1,
      },
    };
    expect(findFrontmatter(new Lines("---\nname: x\n# T\n"))).toEqual(expected);
    expect(findFrontmatter(new Lines("---"))).toEqual(expected);
  });
});

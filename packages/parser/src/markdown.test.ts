import { describe, expect, it } from "vitest";
import { endLine, parseMarkdown, startLine } from "./markdown";

describe("parseMarkdown", () => {
  it("keeps absolute lines, the frontmatter included", () => {
    const root = parseMarkdown("---\nname: x\n---\n\n# T\n\n```lua\nx = 1\n```\n");
    expect(root.children?.map((node) => [node.type, startLine(node), endLine(node)])).toEqual([
      ["yaml", 1, 3],
      ["heading", 5, 5],
      ["code", 7, 9],
    ]);
    expect(root.children?.[2]?.lang).toBe("lua");
  });

  it("takes a `---` pair only on line 1 as frontmatter", () => {
    const root = parseMarkdown("# T\n\n---\na: 1\n---\n");
    expect(root.children?.map((node) => node.type)).toEqual([
      "heading",
      "thematicBreak",
      "heading",
    ]);
  });
});

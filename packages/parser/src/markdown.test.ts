import { describe, expect, it } from "vitest";
import { Lines } from "./lines";
import { endLine, parseMarkdown, parseMarkdownWhole, startLine } from "./markdown";

describe("parseMarkdown", () => {
  it("keeps absolute lines, the frontmatter included", () => {
    const text = "---\nname: x\n---\n\n# T\n\n```lua\nx = 1\n```\n";
    for (const root of [parseMarkdownWhole(text), parseMarkdown(text, new Lines(text), 3)]) {
      expect(root.children?.map((node) => [node.type, startLine(node), endLine(node)])).toEqual([
        ["yaml", 1, 3],
        ["heading", 5, 5],
        ["code", 7, 9],
      ]);
      expect(root.children?.[2]?.lang).toBe("lua");
    }
  });

  it("takes a `---` pair only on line 1 as frontmatter", () => {
    const root = parseMarkdownWhole("# T\n\n---\na: 1\n---\n");
    expect(root.children?.map((node) => node.type)).toEqual([
      "heading",
      "thematicBreak",
      "heading",
    ]);
  });
});

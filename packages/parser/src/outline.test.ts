import { describe, expect, it } from "vitest";
import { Lines } from "./lines";
import { parseMarkdownWhole as parseMarkdown } from "./markdown";
import { isClosingFence, outlineDocument } from "./outline";
import { withFrontmatter } from "./test-support";

function outline(text: string) {
  return outlineDocument(parseMarkdown(text), text, new Lines(text));
}

function errorOf(text: string) {
  const result = outline(text);
  if (result.ok) throw new Error("expected an error");
  return result.error;
}

describe("outlineDocument", () => {
  it("finds the title, the sections and their root-level lua blocks", () => {
    const result = outline(
      withFrontmatter(
        "", // 6
        "# Title", // 7
        "```lua", // 8
        "x = 1", // 9
        "```", // 10
        "## A ##", // 11
        "~~~~lua extra words", // 12
        "~~~~", // 13
        "```python", // 14
        "not lua", // 15
        "```", // 16
        "### B", // 17
        "    indented code", // 18
      ),
    );
    expect(result).toEqual({
      ok: true,
      value: {
        title: {
          level: 1,
          name: "Title",
          headingLine: 7,
          lastLine: 10,
          blocks: [{ fenceLine: 8, closeLine: 10 }],
          listItems: [],
        },
        sections: [
          {
            level: 2,
            name: "A",
            headingLine: 11,
            lastLine: 16,
            blocks: [{ fenceLine: 12, closeLine: 13 }],
            listItems: [],
          },
          { level: 3, name: "B", headingLine: 17, lastLine: 18, blocks: [], listItems: [] },
        ],
      },
    });
  });

  it("keeps heading text as written, trimmed", () => {
    const result = outline(withFrontmatter("#   Fancy *title*  ", "## `code` \\# name ##"));
    expect(result.ok && result.value.title.name).toBe("Fancy *title*");
    expect(result.ok && result.value.sections[0]?.name).toBe("`code` \\# name");
  });

  it("treats headings inside lists and blockquotes as prose", () => {
    const result = outline(withFrontmatter("# T", "- ## not a section", "> # not a title"));
    expect(result.ok && result.value.sections).toEqual([]);
  });

  it("takes only `lua` as the first word of the info string", () => {
    const result = outline(
      withFrontmatter("# T", "```Lua", "x", "```", "```luax", "x", "```", "``` lua", "x", "```"),
    );
    expect(result.ok && result.value.title.blocks).toEqual([{ fenceLine: 13, closeLine: 15 }]);
  });

  it("refuses content between the frontmatter and the title", () => {
    expect(errorOf(withFrontmatter("", "Intro text.", "# T"))).toEqual({
      kind: "Markdown",
      message: "expected the `# Title` heading after the frontmatter, found text (line 7)",
      line: 7,
    });
    expect(errorOf(withFrontmatter("<!-- c -->", "# T")).message).toBe(
      "expected the `# Title` heading after the frontmatter, found HTML (line 6)",
    );
    expect(errorOf(withFrontmatter("## Section", "# T")).message).toBe(
      "expected the `# Title` heading after the frontmatter, found a `##` heading (line 6)",
    );
  });

  it("refuses a prompt with no title", () => {
    expect(errorOf(withFrontmatter(""))).toEqual({
      kind: "Markdown",
      message: "the prompt has no `# Title` heading after its frontmatter (line 5)",
      line: 5,
    });
  });

  it("refuses a second title", () => {
    expect(errorOf(withFrontmatter("# One", "## A", "# Two"))).toEqual({
      kind: "Markdown",
      message: "a prompt has exactly one `# Title` heading; this is a second one (line 8)",
      line: 8,
    });
  });

  it("refuses setext headings", () => {
    const message =
      "text underlined with `===` or `---` is a setext heading, which prompts do not use: write `# Title` or `## Name` headings, and leave a blank line before a `---` rule (line 6)";
    expect(errorOf(withFrontmatter("Title", "=====")).message).toBe(message);
    expect(errorOf(withFrontmatter("# T", "", "Some prose", "---")).message).toBe(
      message.replace("line 6", "line 8"),
    );
  });

  it("refuses headings with no text", () => {
    expect(errorOf(withFrontmatter("#")).message).toBe(
      "the `# Title` heading has no text (line 6)",
    );
    expect(errorOf(withFrontmatter("# T", "### ###")).message).toBe(
      "a section heading needs a name, such as `### Gather` (line 7)",
    );
  });

  it("refuses a lua block inside a list or blockquote", () => {
    const message =
      "a ```lua block must sit directly in a section, not inside a list or blockquote";
    expect(
      errorOf(withFrontmatter("# T", "## A", "- item", "", "  ```lua", "  x = 1", "  ```")),
    ).toEqual({
      kind: "Markdown",
      message: `${message} (line 10)`,
      line: 10,
    });
    expect(errorOf(withFrontmatter("# T", "> ```lua", "> x", "> ```")).message).toBe(
      `${message} (line 7)`,
    );
  });

  it("refuses an unclosed fence, naming the opening line", () => {
    expect(errorOf(withFrontmatter("# T", "## A", "```lua", "x = 1", "", "## B"))).toEqual({
      kind: "Markdown",
      message: "the code fence opened on line 8 is never closed: add a closing ``` (line 8)",
      line: 8,
    });
    expect(errorOf(withFrontmatter("# T", "~~~~ python", "x", "~~~")).message).toBe(
      "the code fence opened on line 7 is never closed: add a closing ~~~~ (line 7)",
    );
    expect(errorOf(`${withFrontmatter("# T")}\`\`\`lua`).message).toBe(
      "the code fence opened on line 7 is never closed: add a closing ``` (line 7)",
    );
  });

  it("accepts a closing fence on the last line without a line ending", () => {
    const result = outline(`${withFrontmatter("# T", "```lua", "x")}\`\`\``);
    expect(result.ok && result.value.title.blocks).toEqual([{ fenceLine: 7, closeLine: 9 }]);
  });
});

describe("isClosingFence", () => {
  it("needs the same character and at least the opener's length", () => {
    expect(isClosingFence("```", "```")).toBe(true);
    expect(isClosingFence("   ````  ", "```")).toBe(true);
    expect(isClosingFence("``", "```")).toBe(false);
    expect(isClosingFence("~~~", "```")).toBe(false);
    expect(isClosingFence("```", "````")).toBe(false);
    expect(isClosingFence("``` x", "```")).toBe(false);
    expect(isClosingFence("    ```", "```")).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { draftBlocks, draftDocument } from "./draft";
import { Lines } from "./lines";
import { parseMarkdownWhole as parseMarkdown } from "./markdown";
import { outlineDocument } from "./outline";
import { buildSectionTree } from "./sections";
import { withFrontmatter } from "./test-support";

function draft(text: string) {
  const lines = new Lines(text);
  const outline = outlineDocument(parseMarkdown(text), text, lines);
  if (!outline.ok) throw new Error(outline.error.message);
  const places = buildSectionTree(outline.value.sections);
  if (!places.ok) throw new Error(places.error.message);
  return draftDocument(outline.value.title, places.value, lines);
}

describe("draftDocument", () => {
  it("labels every title block H1 `{title}` lua and section blocks by role", () => {
    const drafted = draft(
      withFrontmatter(
        "# T",
        "```lua",
        "a()",
        "```",
        "```lua",
        "b()",
        "```",
        "## S",
        "Prose.",
        "```lua",
        "c()",
        "```",
      ),
    );
    expect(
      draftBlocks(drafted).map((block) => [
        block.label,
        block.role,
        block.index,
        block.section,
        block.sectionName,
      ]),
    ).toEqual([
      ["H1 `T` lua", "title", 0, null, "T"],
      ["H1 `T` lua", "title", 1, null, "T"],
      ["section `S` epilog", "epilog", 0, 0, "S"],
    ]);
  });

  it("adds the heading line to the labels of a shared name", () => {
    const drafted = draft(
      withFrontmatter("# T", "## A", "### X", "```lua", "```", "## X", "```lua", "```"),
    );
    expect(draftBlocks(drafted).map((block) => block.label)).toEqual([
      "section `X` (line 8) prologue",
      "section `X` (line 11) prologue",
    ]);
  });
});

import { describe, expect, it } from "vitest";
import { Lines } from "./lines";
import { listItemsOf } from "./list-items";
import { parseMarkdownWhole as parseMarkdown } from "./markdown";
import { expectPrompt, realParser, text, withFrontmatter } from "./test-support";
import type { ListItem, ProseSegment } from "./types";

/** The items of every root-level list of a Markdown snippet. */
function itemsOf(...source: string[]): ListItem[] {
  const markdown = text(...source);
  const root = parseMarkdown(markdown);
  const lines = new Lines(markdown);
  return (root.children ?? [])
    .filter((node) => node.type === "list")
    .flatMap((list) => listItemsOf(list, lines));
}

/** The prose segments of the prompt's sections (title first), parsed for real. */
async function segmentsOf(input: string): Promise<ProseSegment[]> {
  const prompt = expectPrompt((await realParser())(input));
  return [prompt.title, ...prompt.sections]
    .flatMap((area) => area.items)
    .filter((item): item is ProseSegment => item.kind === "prose");
}

describe("listItemsOf", () => {
  it("reads bullet items with each marker", () => {
    expect(itemsOf("- dash", "", "* star", "", "+ plus")).toEqual([
      { text: "dash", line: 1 },
      { text: "star", line: 3 },
      { text: "plus", line: 5 },
    ]);
  });

  it("reads ordered items with `.` and `)`, wide numbers included", () => {
    expect(itemsOf("1. one", "2. two", "", "1) first", "10) tenth", "    more")).toEqual([
      { text: "one", line: 1 },
      { text: "two", line: 2 },
      { text: "first", line: 4 },
      { text: "tenth\nmore", line: 5 },
    ]);
  });

  it("keeps nested content as Markdown, without the item's indentation", () => {
    expect(
      itemsOf(
        "- parent *item*",
        "  - child",
        "    - grandchild",
        "",
        "  A second paragraph.",
        "",
        "  ```js",
        "  x()",
        "  ```",
        "- > quoted",
      ),
    ).toEqual([
      {
        text: "parent *item*\n- child\n  - grandchild\n\nA second paragraph.\n\n```js\nx()\n```",
        line: 1,
      },
      { text: "> quoted", line: 10 },
    ]);
  });

  it("takes the content column as the item's indentation", () => {
    expect(itemsOf("  -   wide", "      next", "  lazy line")).toEqual([
      { text: "wide\nnext\nlazy line", line: 1 },
    ]);
  });

  it("reads an item whose content starts on the line after its marker", () => {
    expect(itemsOf("-", "  later", "- now")).toEqual([
      { text: "later", line: 1 },
      { text: "now", line: 3 },
    ]);
  });

  it("gives '' for an empty item", () => {
    expect(itemsOf("- a", "-", "- c", "1.")).toEqual([
      { text: "a", line: 1 },
      { text: "", line: 2 },
      { text: "c", line: 3 },
      { text: "", line: 4 },
    ]);
  });

  it("counts a tab to the next multiple of four columns and keeps what it overshoots", () => {
    expect(itemsOf("- a", "\tb", "", "1.  one", "\t- deeper")).toEqual([
      { text: "a\n  b", line: 1 },
      { text: "one\n- deeper", line: 4 },
    ]);
  });
});

describe("ProseSegment.listItems", () => {
  it("holds the root-level list items of each segment, lines absolute", async () => {
    const segments = await segmentsOf(
      withFrontmatter(
        "# T", // 6
        "- title item", // 7
        "## Topics", // 8
        "Some topics:", // 9
        "", // 10
        "- alpha", // 11
        "- beta", // 12
        "", // 13
        "```lua", // 14
        "x = 1", // 15
        "```", // 16
        "1. gamma", // 17
        "", // 18
        "No list here.", // 19
      ),
    );
    expect(segments.map((segment) => segment.listItems)).toEqual([
      [{ text: "title item", line: 7 }],
      [
        { text: "alpha", line: 11 },
        { text: "beta", line: 12 },
      ],
      [{ text: "gamma", line: 17 }],
    ]);
  });

  it("reads no list inside a blockquote, a fence or indented code, and none in plain text", async () => {
    const [segment] = await segmentsOf(
      withFrontmatter(
        "# T",
        "## S",
        "> - quoted",
        "",
        "```md",
        "- fenced",
        "```",
        "",
        "    - indented code",
        "",
        "Text with - a dash.",
      ),
    );
    expect(segment?.listItems).toEqual([]);
  });

  it("reads a CRLF file like its LF form", async () => {
    const lf = withFrontmatter("# T", "## S", "- one", "  more", "", "- two", "");
    const segments = await segmentsOf(lf.replace(/\n/g, "\r\n"));
    expect(segments.map((segment) => segment.listItems)).toEqual([
      [
        { text: "one\nmore", line: 8 },
        { text: "two", line: 11 },
      ],
    ]);
  });
});

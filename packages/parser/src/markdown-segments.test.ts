import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Lines } from "./lines";
import { parseMarkdown, parseMarkdownWhole } from "./markdown";
import { outlineDocument } from "./outline";

/**
 * The segmented reader must give the outline one remark parse of the whole text gives, for
 * every text (markdown-segments.ts). Checked on the cases that decide where a cut may fall,
 * and as a property (fast-check, pinned exactly; fixed seed, run count beside it) over
 * prompt-shaped texts built from the pieces that make and break Markdown blocks.
 */

const SEED = 20261202;
const FRONTMATTER = "---\nname: t\ndescription: d\nrunvil: 0\n---\n";

/** The outline of `text` both ways. */
function both(text: string): [unknown, unknown] {
  const lines = new Lines(text);
  return [
    outlineDocument(parseMarkdown(text, lines, 5), text, lines),
    outlineDocument(parseMarkdownWhole(text), text, lines),
  ];
}

const CASES: Record<string, string> = {
  "simple sections":
    "# T\n\nIntro {{ x }}.\n\n## A\n\nText\nmore.\n\n```lua\nx = 1\n```\n- a\n- b\n\n## B\n",
  "a list right after a paragraph": "# T\n\n## A\n\nIntro:\n- a\n- b\n\nAfter.\n",
  "a plain line continuing a list item lazily": "# T\n\n## A\n\n- a\nlazy\n\n```lua\nx = 1\n```\n",
  "an item continued after a blank line":
    "# T\n\n## A\n\n- a\n\n  more\n\n  ```lua\n  x = 1\n  ```\n",
  "a setext underline": "# T\n\n## A\n\nText\n===\n\n## B\n",
  "a heading with a closing sequence": "# T\n\n## A ##\n\n## B \\#\n\n##  C\n\n#\n",
  "an unclosed fence": "# T\n\n## A\n\n```lua\nx = 1\n\n## B\n",
  "a fence with info text": "# T\n\n## A\n\n``` lua extra\nx = 1\n```\n~~~lua\ny\n~~~~\n",
  "an HTML comment over a blank line": "# T\n\n<!--\n\n## Hidden\n\n-->\n\n## A\n",
  "an indented fence": "# T\n\n## A\n\n- a\n\n  ```\n\nfoo\n  ```\n\n## B\n",
  "a block quote and lazy lines": "# T\n\n## A\n\n> quote\nlazy\n\nText\n",
  "content before the title": "Text first\n\n# T\n",
  "a nested lua block": "# T\n\n## A\n\n- item\n\n  ```lua\n  x = 1\n  ```\n",
  "a backtick in a backtick fence's info": "# T\n\n```lua`\nx\n```\n\n## A\n",
  "indented code": "# T\n\n## A\n\n    code\n\n    more\nText\n",
  "numbers and rules": "# T\n\n## A\n\n1. one\n2. two\n\n***\n\n---\n",
};

describe("the segmented Markdown reader", () => {
  for (const [name, body] of Object.entries(CASES)) {
    it(`gives the whole parse's outline: ${name}`, () => {
      const [segmented, whole] = both(FRONTMATTER + body);
      expect(segmented).toEqual(whole);
    });
  }

  const PIECES = [
    "\n",
    "\n\n",
    "# ",
    "## ",
    "### ",
    "#",
    "```",
    "```lua\n",
    "``` lua\n",
    "~~~",
    "---",
    "===",
    "- ",
    "* ",
    "+ ",
    "> ",
    "1. ",
    "  ",
    "    ",
    "\t",
    "text",
    "Text",
    "{{ x }}",
    "(",
    "'",
    "*",
    "_",
    "[a]: /u\n",
    "<!--",
    "-->",
    "<div>",
    "\\",
    "`",
    "x = 1\n",
    "  ```\n",
    "&amp;",
    "é",
  ];
  // 2,000 runs of texts of up to 80 pieces after a frontmatter.
  it("gives the whole parse's outline for any prompt-shaped text", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 80 }), (pieces) => {
        const [segmented, whole] = both(`${FRONTMATTER}${pieces.join("")}`);
        expect(segmented).toEqual(whole);
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });
});

import { describe, expect, it } from "vitest";
import { parseForTest, promptText } from "../test-support/parse";
import { parseHeadingReference, sectionNotFoundMessage } from "./heading-reference";
import { SectionTree } from "./section-tree";

const outline = promptText(
  [
    "# T",
    "## A",
    "### X",
    "#### Deep",
    "### Y",
    "## B",
    "### X",
    "### Helpers",
    "### Helpers",
    "## C",
    "",
  ].join("\n\n"),
);

async function load(): Promise<{ tree: SectionTree; at: (ref: string, nth?: number) => number }> {
  const prompt = await parseForTest(outline);
  const at = (ref: string, nth = 0): number => {
    const found = prompt.sections.filter((s) => s.reference === ref)[nth];
    if (found === undefined) throw new Error(`no ${ref}`);
    return found.index;
  };
  return { tree: new SectionTree(prompt), at };
}

describe("parseHeadingReference", () => {
  it("reads the level and the exact name, ignoring surrounding spaces", () => {
    expect(parseHeadingReference("## lib")).toEqual({ level: 2, name: "lib" });
    expect(parseHeadingReference("  ###   Sub Section  ")).toEqual({
      level: 3,
      name: "Sub Section",
    });
    expect(parseHeadingReference("os")).toBeNull();
    expect(parseHeadingReference("##lib")).toBeNull();
    expect(parseHeadingReference("####### x")).toBeNull();
    expect(parseHeadingReference("## ")).toBeNull();
  });

  it("words the not-found refusal with the trimmed target", () => {
    expect(sectionNotFoundMessage(" ## Missing ")).toBe("section heading `## Missing` not found");
  });
});

describe("SectionTree.resolve", () => {
  it("sees children, siblings, ancestors' siblings and the top level", async () => {
    const { tree, at } = await load();
    expect(tree.resolve("### X", at("## A"))).toBe(at("### X", 0));
    expect(tree.resolve("### Y", at("### X", 0))).toBe(at("### Y"));
    expect(tree.resolve("## C", at("#### Deep"))).toBe(at("## C"));
    expect(tree.resolve("## A", null)).toBe(at("## A"));
  });

  it("prefers the nearest scope", async () => {
    const { tree, at } = await load();
    expect(tree.resolve("### X", at("## B"))).toBe(at("### X", 1));
    expect(tree.resolve("### X", at("### Helpers", 0))).toBe(at("### X", 1));
  });

  it("takes the first of two same-named sections in one scope", async () => {
    const { tree, at } = await load();
    expect(tree.resolve("### Helpers", at("## B"))).toBe(at("### Helpers", 0));
  });

  it("does not see sections nested under another branch", async () => {
    const { tree, at } = await load();
    expect(tree.resolve("### Y", at("## B"))).toBeNull();
    expect(tree.resolve("#### Deep", at("## C"))).toBeNull();
    expect(tree.resolve("### X", null)).toBeNull();
    expect(tree.resolve("## Missing", at("## A"))).toBeNull();
    expect(tree.resolve("os", at("## A"))).toBeNull();
  });
});

describe("SectionTree.next", () => {
  it("walks the top level and skips child levels", async () => {
    const { tree, at } = await load();
    expect(tree.firstSection).toBe(at("## A"));
    expect(tree.next(at("## A"), null)).toBe(at("## B"));
    expect(tree.next(at("## C"), null)).toBeNull();
  });

  it("goes on to the next sibling inside a child level, then climbs", async () => {
    const { tree, at } = await load();
    expect(tree.next(at("### X", 0), null)).toBe(at("### Y"));
    expect(tree.next(at("### Y"), null)).toBe(at("## B"));
    expect(tree.next(at("#### Deep"), null)).toBe(at("### Y"));
  });

  it("never climbs out of a chain's container", async () => {
    const { tree, at } = await load();
    const a = at("## A");
    expect(tree.next(at("### X", 0), a)).toBe(at("### Y"));
    expect(tree.next(at("### Y"), a)).toBeNull();
    expect(tree.next(at("#### Deep"), at("### X", 0))).toBeNull();
    expect(tree.next(at("#### Deep"), a)).toBe(at("### Y"));
    expect(tree.next(at("## B"), a)).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import type { Region } from "./outline";
import { buildSectionTree } from "./sections";

const region = (level: number, name: string, headingLine: number): Region => ({
  level,
  name,
  headingLine,
  lastLine: headingLine,
  blocks: [],
  listItems: [],
});

describe("buildSectionTree", () => {
  it("nests deeper sections under the nearest shallower one", () => {
    const result = buildSectionTree([
      region(2, "A", 1),
      region(3, "X", 2),
      region(5, "Deep", 3),
      region(3, "Y", 4),
      region(2, "B", 5),
      region(4, "Z", 6),
    ]);
    expect(result.ok && result.value.map(({ region: _r, ...place }) => place)).toEqual([
      {
        index: 0,
        level: 2,
        reference: "## A",
        parent: null,
        children: [1, 3],
        topLevel: true,
        nameShared: false,
      },
      {
        index: 1,
        level: 3,
        reference: "### X",
        parent: 0,
        children: [2],
        topLevel: false,
        nameShared: false,
      },
      {
        index: 2,
        level: 5,
        reference: "##### Deep",
        parent: 1,
        children: [],
        topLevel: false,
        nameShared: false,
      },
      {
        index: 3,
        level: 3,
        reference: "### Y",
        parent: 0,
        children: [],
        topLevel: false,
        nameShared: false,
      },
      {
        index: 4,
        level: 2,
        reference: "## B",
        parent: null,
        children: [5],
        topLevel: true,
        nameShared: false,
      },
      {
        index: 5,
        level: 4,
        reference: "#### Z",
        parent: 4,
        children: [],
        topLevel: false,
        nameShared: false,
      },
    ]);
  });

  it("takes the shallowest level used as the top level", () => {
    const result = buildSectionTree([region(3, "A", 1), region(4, "B", 2), region(3, "C", 3)]);
    expect(result.ok && result.value.map((place) => place.topLevel)).toEqual([true, false, true]);
  });

  it("marks names that another section heading shares, at any level", () => {
    const result = buildSectionTree([
      region(2, "A", 1),
      region(3, "Helpers", 2),
      region(2, "Helpers", 3),
      region(2, "C", 4),
    ]);
    expect(result.ok && result.value.map((place) => place.nameShared)).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });

  it("refuses a section deeper than the top level before the first top-level section", () => {
    expect(buildSectionTree([region(3, "Early", 9), region(2, "Main", 12)])).toEqual({
      ok: false,
      error: {
        kind: "Markdown",
        message:
          "the section `### Early` comes before any `##` section, so it has no parent section: start with a `##` section (line 9)",
        line: 9,
      },
    });
  });

  it("builds nothing from no sections", () => {
    expect(buildSectionTree([])).toEqual({ ok: true, value: [] });
  });
});

import { describe, expect, it } from "vitest";
import { Lines } from "./lines";
import { splitRegion } from "./prose";

describe("splitRegion", () => {
  const lines = new Lines(
    [
      "## S", // 1
      "", // 2
      "First prose.", // 3
      "", // 4
      "Still first.", // 5
      "```lua", // 6
      "x = 1", // 7
      "```", // 8
      "   ", // 9
      "```lua", // 10
      "```", // 11
      "Last prose.", // 12
      "", // 13
    ].join("\n"),
  );

  it("splits a region into prose segments and blocks, dropping blank-only stretches", () => {
    const region = {
      level: 2,
      name: "S",
      headingLine: 1,
      lastLine: 13,
      blocks: [
        { fenceLine: 6, closeLine: 8 },
        { fenceLine: 10, closeLine: 11 },
      ],
      listItems: [],
    };
    expect(splitRegion(region, lines)).toEqual([
      {
        kind: "prose",
        text: "First prose.\n\nStill first.",
        firstLine: 3,
        lastLine: 5,
        listItems: [],
      },
      { kind: "block", fenceLine: 6, closeLine: 8 },
      { kind: "block", fenceLine: 10, closeLine: 11 },
      { kind: "prose", text: "Last prose.", firstLine: 12, lastLine: 12, listItems: [] },
    ]);
  });

  it("gives nothing for a heading alone", () => {
    expect(
      splitRegion(
        { level: 2, name: "S", headingLine: 1, lastLine: 2, blocks: [], listItems: [] },
        lines,
      ),
    ).toEqual([]);
  });
});

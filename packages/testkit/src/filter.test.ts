import { describe, expect, it } from "vitest";
import { filterCases } from "./filter";
import { loadScenarioFile } from "./load-scenarios";

const text = `cases:
  - name: Offer-Search advertises one tool
    prompt: p
    expect: { result: x }
  - name: packs.offer refuses
    prompt: p
    expect: { result: x }
`;
const offering = loadScenarioFile({ text, path: "tools/05-offering.yaml" });
const logging = loadScenarioFile({
  text: text.replace("Offer-Search", "log"),
  path: "lua\\08-logging.yaml",
});

describe("filterCases", () => {
  it("keeps cases whose name contains the text, case-insensitively", () => {
    const kept = filterCases([offering, logging], "offer-search");
    expect(kept).toEqual([{ path: "tools/05-offering.yaml", cases: [offering.cases[0]] }]);
    expect(kept[0]?.cases[0]?.index).toBe(0);
  });

  it("keeps every case of a file whose path contains the text", () => {
    expect(
      filterCases([offering, logging], "TOOLS/05").map((f) => [f.path, f.cases.length]),
    ).toEqual([["tools/05-offering.yaml", 2]]);
  });

  it("compares backslashes in paths as slashes", () => {
    expect(filterCases([offering, logging], "lua/08").map((f) => f.path)).toEqual([
      "lua\\08-logging.yaml",
    ]);
  });

  it("keeps case order and index", () => {
    const kept = filterCases([offering, logging], "refuses");
    expect(kept.map((f) => f.cases.map((c) => c.index))).toEqual([[1], [1]]);
  });

  it("drops files left empty and keeps everything for an empty text", () => {
    expect(filterCases([offering, logging], "no such case")).toEqual([]);
    expect(filterCases([offering, logging], "")).toEqual([offering, logging]);
  });
});

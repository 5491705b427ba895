import { describe, expect, it } from "vitest";
import { testTool } from "../test-support";
import { checkPackTools, REASON_TOOL_ESCAPES_PACK } from "./tool-checks";

describe("checkPackTools", () => {
  it("keeps the tools whose first segment is the Pack id, sorted by id", () => {
    const checked = checkPackTools("web", [
      testTool("web/search"),
      testTool("web/fetch"),
      testTool("web/x/y"),
    ]);
    expect(checked.kept.map((tool) => tool.id)).toEqual(["web/fetch", "web/search", "web/x/y"]);
    expect(checked.dropped).toEqual([]);
  });

  it("drops a tool whose id escapes its Pack id, matching the whole first segment", () => {
    const checked = checkPackTools("web", [
      testTool("webx/fetch"),
      testTool("other/web/fetch"),
      testTool("web/fetch"),
    ]);
    expect(checked.kept.map((tool) => tool.id)).toEqual(["web/fetch"]);
    expect(checked.dropped).toEqual([
      { tool: "webx/fetch", pack: "web", reason: REASON_TOOL_ESCAPES_PACK },
      { tool: "other/web/fetch", pack: "web", reason: REASON_TOOL_ESCAPES_PACK },
    ]);
    expect(REASON_TOOL_ESCAPES_PACK).toBe("a Pack's tool id escapes its Pack id; dropped");
  });

  it("drops malformed ids with the name reason", () => {
    const checked = checkPackTools("web", [
      testTool("web"),
      testTool("web/Fetch"),
      testTool("web//fetch"),
      { ...testTool("x"), id: 42 },
    ]);
    expect(checked.kept).toEqual([]);
    expect(checked.dropped).toEqual([
      {
        tool: "web",
        pack: "web",
        reason:
          "a Pack's tool id is malformed (a tool id is two or more segments, such as `web/fetch`); dropped",
      },
      {
        tool: "web/Fetch",
        pack: "web",
        reason:
          "a Pack's tool id is malformed (segments may contain only lowercase ASCII letters, digits, '-', '_', '.'); dropped",
      },
      {
        tool: "web//fetch",
        pack: "web",
        reason: "a Pack's tool id is malformed (segments must not be empty); dropped",
      },
      {
        tool: "42",
        pack: "web",
        reason: "a Pack's tool id is malformed (a tool id must be a string, got number); dropped",
      },
    ]);
  });

  it("drops a repeated id and a tool without a run function or description", () => {
    const checked = checkPackTools("kit", [
      testTool("kit/a", { description: "first" }),
      testTool("kit/a", { description: "second" }),
      { ...testTool("kit/b"), run: undefined },
      { ...testTool("kit/c"), description: undefined },
      null,
    ]);
    expect(checked.kept.map((tool) => tool.description)).toEqual(["first"]);
    expect(checked.dropped.map((d) => [d.tool, d.reason])).toEqual([
      ["kit/a", "a Pack's tool id repeats another of its tools; dropped"],
      [
        "kit/b",
        "a Pack's tool is not a tool (it needs a string description and a run function); dropped",
      ],
      [
        "kit/c",
        "a Pack's tool is not a tool (it needs a string description and a run function); dropped",
      ],
      [
        "undefined",
        "a Pack's tool id is malformed (a tool id must be a string, got undefined); dropped",
      ],
    ]);
  });
});

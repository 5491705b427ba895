import { describe, expect, it } from "vitest";
import { assistantToolCallFields } from "./loop-events";
import type { CheckedCall } from "./reply-check";
import { catalogTool } from "./test-support";

describe("assistantToolCallFields", () => {
  it("names the tool id of bound calls only, in the model's order", () => {
    const calls: CheckedCall[] = [
      { id: "c1", name: "grab", arguments: { value: "x" } },
      { id: "c2", name: "web_search", arguments: { query: "lua" } },
      { id: "c3", name: "task_status", arguments: {} },
    ];
    const routes = [
      { kind: "local" as const },
      { kind: "catalog" as const, tool: catalogTool("web/search") },
      { kind: "builtin" as const },
    ];
    expect(assistantToolCallFields(calls, routes)).toEqual([
      { id: "c1", name: "grab", arguments: { value: "x" } },
      { id: "c2", name: "web_search", arguments: { query: "lua" }, tool: "web/search" },
      { id: "c3", name: "task_status", arguments: {} },
    ]);
  });

  it("names no tool for a call the gate did not route", () => {
    expect(assistantToolCallFields([{ id: "c1", name: "rogue", arguments: {} }], [])).toEqual([
      { id: "c1", name: "rogue", arguments: {} },
    ]);
  });
});

import { describe, expect, it } from "vitest";
import { advertisedTools } from "./advertised-tools";
import { BUILTINS, rendered, renderedList, webRun } from "./test-support";

describe("advertisedTools", () => {
  it("advertises the rendered list in order as plain ModelTools, with each name's route", () => {
    const run = webRun();
    const list = renderedList([rendered("web_search", "web/search"), rendered("grab", null)]);
    const advertised = advertisedTools(run, list, BUILTINS);
    expect(advertised.names).toEqual(["web_search", "grab"]);
    expect(advertised.tools).toEqual([
      {
        name: "web_search",
        description: "web_search description",
        parameters: { type: "object", properties: {} },
      },
      {
        name: "grab",
        description: "grab description",
        parameters: { type: "object", properties: {} },
      },
    ]);
    expect(advertised.route("web_search")).toEqual({
      kind: "catalog",
      tool: run.offered("web/search"),
    });
    expect(advertised.route("grab")).toEqual({ kind: "local" });
    expect(advertised.route("task")).toBeUndefined();
    expect(advertised.route("web/search")).toBeUndefined();
  });

  it("lists the task built-ins after the rendered tools when the render allowed tasks", () => {
    const advertised = advertisedTools(
      webRun(),
      renderedList([rendered("grab", null)], true),
      BUILTINS,
    );
    expect(advertised.names).toEqual(["grab", "task", "task_cancel", "task_status", "await_tasks"]);
    expect(advertised.route("task_status")).toEqual({ kind: "builtin" });
  });

  it("builds once per rendered list, so every round sends the same tool objects", () => {
    const run = webRun();
    const list = renderedList([rendered("web_fetch", "web/fetch")]);
    const first = advertisedTools(run, list, []);
    expect(advertisedTools(run, list, [])).toBe(first);
    expect(advertisedTools(run, renderedList([]), []).tools).toEqual([]);
  });

  it("refuses a rendered catalog tool the run does not offer", () => {
    expect(() => advertisedTools(webRun(), renderedList([rendered("x", "x/y")]), [])).toThrow(
      "the rendered tool x names x/y, which the run does not offer",
    );
  });
});

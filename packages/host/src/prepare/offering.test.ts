import { describe, expect, it } from "vitest";
import { testTool } from "../test-support";
import { catalogTools } from "./offering";

function wireNames(ids: readonly string[], scalar: readonly string[] = []): (string | null)[] {
  return catalogTools(
    ids.map((id) => ({
      pack: id.split("/")[0] ?? "",
      definition: testTool(id, scalar.includes(id) ? { parameters: "scalar" } : {}),
    })),
  ).map((tool) => tool.wireName);
}

describe("catalogTools", () => {
  it("gives each tool its wire name and its data", () => {
    const [tool] = catalogTools([
      {
        pack: "stats",
        definition: testTool("stats/read", { output: "structured", description: "Reads stats." }),
      },
    ]);
    expect(tool).toEqual({
      id: "stats/read",
      pack: "stats",
      wireName: "stats_read",
      description: "Reads stats.",
      parameters: { type: "object", properties: {} },
      structured: true,
    });
  });

  it("leaves out a tool whose wire name is a task built-in's", () => {
    expect(wireNames(["await/tasks", "task/cancel", "task/status", "task/x"])).toEqual([
      null,
      null,
      null,
      "task_x",
    ]);
  });

  it("leaves out a tool whose parameters are not a JSON object", () => {
    expect(wireNames(["stats/bad", "stats/read"], ["stats/bad"])).toEqual([null, "stats_read"]);
    const [array] = catalogTools([
      { pack: "kit", definition: testTool("kit/a", { parameters: [] }) },
    ]);
    expect(array?.wireName).toBeNull();
  });

  it("lets the first tool in id order keep a wire name two ids share", () => {
    expect(wireNames(["kit/a.b", "kit/a/b", "kit/a_b"])).toEqual(["kit_a_b", null, null]);
  });

  it("lets an offered tool take a wire name a left-out tool would have had", () => {
    expect(wireNames(["kit/a.b", "kit/a/b"], ["kit/a.b"])).toEqual([null, "kit_a_b"]);
  });
});

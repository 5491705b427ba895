import { describe, expect, it } from "vitest";
import * as mcp from "./index";

describe("the package entry point", () => {
  it("exports exactly the public API", () => {
    expect(Object.keys(mcp).sort()).toEqual(["default", "mcpPlugin"]);
    expect(mcp.default).toBe(mcp.mcpPlugin);
    expect(mcp.mcpPlugin.name).toBe("@runvil/plugin-mcp");
  });
});

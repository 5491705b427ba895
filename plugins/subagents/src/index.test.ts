import { describe, expect, it } from "vitest";
import * as subagents from "./index";

describe("the package entry point", () => {
  it("exports exactly the public API", () => {
    expect(Object.keys(subagents).sort()).toEqual(["default", "subagentsPack", "subagentsPlugin"]);
  });
});

import { describe, expect, it } from "vitest";
import { roleText, sectionBlockLabel, sectionRoles, titleBlockLabel } from "./labels";

const parts = (pattern: string) =>
  [...pattern].map((char) => ({ kind: char === "L" ? ("block" as const) : ("prose" as const) }));

describe("sectionRoles", () => {
  it.each([
    ["L", ["prologue"]],
    ["LLLL", ["prologue", "lua", "lua", "lua"]],
    ["PL", ["epilog"]],
    ["LP", ["prologue"]],
    ["LPL", ["prologue", "epilog"]],
    ["PLP", ["lua"]],
    ["LPLPLPL", ["prologue", "lua", "lua", "epilog"]],
    ["LLPLL", ["prologue", "lua", "lua", "epilog"]],
    ["PLLP", ["lua", "lua"]],
    ["PLL", ["lua", "epilog"]],
    ["LLP", ["prologue", "lua"]],
    ["P", []],
  ])("gives %s the roles %j", (pattern, roles) => {
    expect(sectionRoles(parts(pattern))).toEqual(roles);
  });
});

describe("labels", () => {
  it("reads roles as labels do", () => {
    expect(roleText("prologue", 0)).toBe("prologue");
    expect(roleText("epilog", 3)).toBe("epilog");
    expect(roleText("lua", 2)).toBe("lua 3");
    expect(roleText("title", 1)).toBe("lua");
  });

  it("labels section blocks, with the heading line for a shared name", () => {
    expect(sectionBlockLabel("Check", undefined, "epilog", 0)).toBe("section `Check` epilog");
    expect(sectionBlockLabel("Helpers", 10, "prologue", 0)).toBe(
      "section `Helpers` (line 10) prologue",
    );
    expect(sectionBlockLabel("lib", undefined, "lua", 2)).toBe("section `lib` lua 3");
    expect(sectionBlockLabel("Research Worker Notes", 109, "prologue", 0)).toBe(
      "section `Research Worker Notes` (line 109) prologue",
    );
  });

  it("labels every title block the same way", () => {
    expect(titleBlockLabel("T")).toBe("H1 `T` lua");
  });
});

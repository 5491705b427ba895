import type { LuaRuntime } from "@runvil/lua";
import { describe, expect, it } from "vitest";
import { type BlockToCompile, compileBlocks } from "./compile-blocks";
import { fakeLua } from "./test-support";
import type { CompileReport } from "./types";

const block = (
  source: string,
  firstLine: number,
  label: string,
  sectionName = "S",
): BlockToCompile => ({
  source,
  firstLine,
  label,
  sectionName,
  underTitle: false,
});

describe("compileBlocks", () => {
  it("compiles every block in order under the chunk name line N", () => {
    const names: string[] = [];
    const lua: LuaRuntime = {
      compile(source, chunkName) {
        names.push(chunkName);
        return fakeLua.compile(source, chunkName);
      },
    };
    const result = compileBlocks(lua, [
      block("a = 1", 9, "H1 `T` lua"),
      block("b = 2", 14, "section `S` prologue"),
    ]);
    expect(names).toEqual(["line 9", "line 14"]);
    expect(result.ok && result.value.map((bytes) => new TextDecoder().decode(bytes))).toEqual([
      "line 9",
      "line 14",
    ]);
  });

  it("stops at the first failing block with the exact compile error and the block's source", () => {
    const reports: CompileReport[] = [];
    const result = compileBlocks(
      fakeLua,
      [
        block("ok()", 9, "section `A` prologue", "A"),
        block("FAIL", 14, "section `B` epilog", "B"),
        block("FAIL", 20, "x"),
      ],
      (report) => reports.push(report),
    );
    expect(result).toEqual({
      ok: false,
      error: {
        kind: "Lua",
        message:
          'lua compilation error at section `B` epilog (line 14): [string "line 14"]:1: FAIL',
        source: "FAIL",
      },
    });
    expect(reports).toEqual([
      { stage: "started", section: "A", underTitle: false },
      { stage: "succeeded", section: "A", underTitle: false },
      { stage: "started", section: "B", underTitle: false },
      { stage: "failed", section: "B", underTitle: false },
    ]);
  });

  it("turns a runtime that throws into a compile error", () => {
    const lua: LuaRuntime = {
      compile() {
        throw new Error("wasm trap");
      },
    };
    expect(compileBlocks(lua, [block("x", 3, "section `S` prologue")])).toEqual({
      ok: false,
      error: {
        kind: "Lua",
        message:
          "lua compilation error at section `S` prologue (line 3): the Lua runtime failed while compiling: wasm trap",
        source: "x",
      },
    });
  });
});

import type { RunPrelude } from "@runvil/protocol";
import { describe, expect, it } from "vitest";
import { loadLuaRuntime } from "../lua";
import { preludeChunks } from "./prelude-chunks";

describe("preludeChunks", () => {
  it("compiles each prelude once, in order, and keeps a prelude that does not compile as source", async () => {
    const runtime = await loadLuaRuntime();
    const good: RunPrelude = { pack: "kit", source: "answer = 42" };
    const bad: RunPrelude = { pack: "broken", source: "answer = = 42" };
    const first = preludeChunks(runtime, [good, bad]);
    expect(first.map((chunk) => [chunk.pack, "bytecode" in chunk])).toEqual([
      ["kit", true],
      ["broken", false],
    ]);
    expect(first[1]).toEqual({ pack: "broken", source: "answer = = 42" });
    const again = preludeChunks(runtime, [bad, good]);
    expect(again[0]).toBe(first[1]);
    expect(again[1]).toBe(first[0]);
  });
});

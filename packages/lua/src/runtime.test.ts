import { describe, expect, it } from "vitest";
import { chunkNameForLine } from "./chunk-name";
import { formatCompileError } from "./compile-error";
import { loadLuaModule } from "./module";
import { loadLuaRuntime } from "./runtime";

describe("loadLuaRuntime", () => {
  it("gives concurrent and later callers the same runtime", async () => {
    const [first, second] = await Promise.all([loadLuaRuntime(), loadLuaRuntime()]);
    expect(second).toBe(first);
    expect(await loadLuaRuntime()).toBe(first);
  });

  it("shares one wasm module per process", async () => {
    const [first, second] = await Promise.all([loadLuaModule(), loadLuaModule()]);
    expect(second).toBe(first);
  });

  it("formats the spec's broken-check compile error end to end", async () => {
    const runtime = await loadLuaRuntime();
    const result = runtime.compile("local secret =\nreturn secret\n", chunkNameForLine(14));
    expect(result).toEqual({
      ok: false,
      diagnostic: `[string "line 14"]:2: unexpected symbol near 'return'`,
    });
    if (result.ok) return;
    expect(formatCompileError("section `Check` epilog", 14, result.diagnostic)).toBe(
      "lua compilation error at section `Check` epilog (line 14): " +
        `[string "line 14"]:2: unexpected symbol near 'return'`,
    );
  });

  it("keeps the wasm heap flat over 10,000 compiles after warm-up", async () => {
    const runtime = await loadLuaRuntime();
    const module = await loadLuaModule();
    // About 4 KB per block: a leaked source buffer would grow the heap by ~40 MB.
    const body = Array.from({ length: 100 }, (_, i) => `local v${i} = "value ${i}" .. ${i}`);
    const good = `${body.join("\n")}\nreturn v1`;
    const bad = `${body.join("\n")}\nreturn (`;
    const compileBoth = (i: number): void => {
      const ok = runtime.compile(good, chunkNameForLine(i + 1));
      const failed = runtime.compile(bad, chunkNameForLine(i + 1));
      if (!ok.ok || failed.ok) throw new Error(`unexpected compile outcome at ${i}`);
    };
    for (let i = 0; i < 500; i++) compileBoth(i);
    const heapAfterWarmUp = module.HEAPU8.byteLength;
    for (let i = 0; i < 5_000; i++) compileBoth(i);
    expect(module.HEAPU8.byteLength).toBe(heapAfterWarmUp);
  });
});

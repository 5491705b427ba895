import { MAX_RUN_SEED } from "@runvil/engine";
import { describe, expect, it } from "vitest";
import { MAX_SEED, parseSeed, randomSeed } from "./run-seed";

describe("--seed", () => {
  it("has the Engine's largest seed", () => {
    expect(MAX_SEED).toBe(MAX_RUN_SEED);
    expect(parseSeed("18446744073709551615")).toBe(MAX_RUN_SEED);
    expect(parseSeed("18446744073709551616")).toBeUndefined();
  });

  it("draws a different seed in the range for each run that gives none", () => {
    const seeds = new Set(Array.from({ length: 20 }, () => randomSeed()));
    expect(seeds.size).toBe(20);
    for (const seed of seeds) expect(seed >= 0n && seed <= MAX_SEED).toBe(true);
  });
});

import { MAX_RUN_SEED } from "@runvil/engine";
import { describe, expect, it } from "vitest";
import { MAX_SEED, parseSeed } from "./run-seed";

describe("--seed", () => {
  it("has the Engine's largest seed", () => {
    expect(MAX_SEED).toBe(MAX_RUN_SEED);
    expect(parseSeed("18446744073709551615")).toBe(MAX_RUN_SEED);
    expect(parseSeed("18446744073709551616")).toBeUndefined();
  });
});

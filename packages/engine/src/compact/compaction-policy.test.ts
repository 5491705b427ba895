import { describe, expect, it } from "vitest";
import { EngineError } from "../lua";
import { exhaustionReason, nextStep, shrinkRefusal } from "./compaction-policy";

const over = new EngineError("context_exhausted", "the request needs about 900 tokens", {
  reason: "precheck",
});

describe("nextStep", () => {
  it("raises the exhaustion unchanged without a compactor", () => {
    expect(nextStep(over, 0, false)).toEqual({ compact: false, error: over });
  });

  it("compacts up to three times per round", () => {
    expect(nextStep(over, 0, true)).toEqual({ compact: true, attempt: 1 });
    expect(nextStep(over, 2, true)).toEqual({ compact: true, attempt: 3 });
  });

  it("raises a fourth exhaustion with its reason, saying it is still over", () => {
    const step = nextStep(over, 3, true);
    if (step.compact) throw new Error("compacted a fourth time");
    expect(step.error.kind).toBe("context_exhausted");
    expect(step.error.fields).toEqual({ reason: "precheck" });
    expect(step.error.message).toBe(
      "the request needs about 900 tokens; still over after 3 compactions",
    );
  });
});

describe("shrinkRefusal", () => {
  it("lets a smaller estimate through", () => {
    expect(shrinkRefusal(900, 899, "precheck")).toBeUndefined();
  });

  it("refuses an estimate that did not shrink, keeping the reason", () => {
    const same = shrinkRefusal(900, 900, "provider");
    expect(same?.kind).toBe("context_exhausted");
    expect(same?.fields).toEqual({ reason: "provider" });
    expect(same?.message).toBe(
      "the compactor did not shrink the conversation (about 900 tokens before and after)",
    );
    expect(shrinkRefusal(900, 950, "precheck")?.message).toBe(
      "the compactor did not shrink the conversation (about 900 tokens before, 950 after)",
    );
  });
});

describe("exhaustionReason", () => {
  it("reads the three reasons and nothing else", () => {
    expect(exhaustionReason(over)).toBe("precheck");
    expect(
      exhaustionReason(new EngineError("context_exhausted", "x", { reason: "other" })),
    ).toBeUndefined();
    expect(exhaustionReason(new EngineError("context_exhausted", "x"))).toBeUndefined();
  });
});

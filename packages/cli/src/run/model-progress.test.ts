import type { ModelRoundEffectRequest } from "@runvil/protocol";
import { describe, expect, it } from "vitest";
import { ModelProgress } from "./model-progress";

function round(effect: string, role = "writer", turn = 1): ModelRoundEffectRequest {
  return { effect, role, turn } as ModelRoundEffectRequest;
}

describe("ModelProgress", () => {
  it("shows the open round's tokens so far and its retries, and nothing after it ends", () => {
    const progress = new ModelProgress();
    const first = round("0.1/1", "writer", 2);
    expect(progress.text).toBe("");
    progress.started(first);
    expect(progress.text).toBe("writer round 2");
    progress.progress(first, {
      type: "retry",
      attempt: 1,
      delayMs: 1500,
      reason: "rate limited (429)",
    });
    expect(progress.text).toBe("writer round 2 · retry 1 in 1.5 s (rate limited (429))");
    progress.progress(first, { type: "output", outputTokens: 1, attempt: 2 });
    expect(progress.text).toBe("writer round 2 · 1 token");
    progress.progress(first, { type: "output", outputTokens: 153, attempt: 2 });
    expect(progress.text).toBe("writer round 2 · 153 tokens");
    progress.ended(first);
    expect(progress.text).toBe("");
  });

  it("shows the last round that reported when several are open", () => {
    const progress = new ModelProgress();
    progress.started(round("0.1/1", "a"));
    progress.started(round("0.2/1", "b"));
    expect(progress.text).toBe("b round 1");
    progress.ended(round("0.2/1", "b"));
    expect(progress.text).toBe("a round 1");
  });
});

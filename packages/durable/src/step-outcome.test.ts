import { StoreError, ToolFailure } from "@runvil/sdk";
import { describe, expect, it } from "vitest";
import { captureOutcome, outcomeError, readOutcome } from "./step-outcome";

describe("step outcomes", () => {
  it("keep an output with its request and give it back", async () => {
    const text = await captureOutcome("req", async () => ["a", "b"]);
    const outcome = readOutcome(text, "runvil:1/1");
    expect(outcome).toEqual({ request: "req", output: '["a","b"]' });
    expect(outcomeError(outcome)).toBeUndefined();
  });

  it("keep a failure as the same error class, reason and message", async () => {
    const store = readOutcome(
      await captureOutcome("req", async () => {
        throw new StoreError({
          reason: "not_found",
          path: "a.txt",
          message: "no such file: a.txt",
        });
      }),
      "s",
    );
    const error = outcomeError(store);
    expect(StoreError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      reason: "not_found",
      path: "a.txt",
      message: "no such file: a.txt",
    });
    const tool = outcomeError(
      readOutcome(
        await captureOutcome("req", async () => {
          throw new ToolFailure("the tool broke");
        }),
        "t",
      ),
    );
    expect(ToolFailure.isInstance(tool)).toBe(true);
    expect(tool?.message).toBe("the tool broke");
  });

  it("refuse a step output that is not an outcome, naming the step", () => {
    expect(() => readOutcome("{}", "runvil:1/2")).toThrow(
      "step runvil:1/2: the recorded output is not a Runvil step outcome",
    );
    expect(() => readOutcome(42, "runvil:1/2")).toThrow(/runvil:1\/2/);
  });
});

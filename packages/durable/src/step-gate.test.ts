import { describe, expect, it } from "vitest";
import { StepGate } from "./step-gate";
import { MemorySteps } from "./test-support/memory-steps";

describe("StepGate", () => {
  it("lets steps through while open and drains the ones in flight", async () => {
    const gate = new StepGate();
    const memory = new MemorySteps();
    const steps = gate.gate(memory);
    let finish: (value: string) => void = () => undefined;
    const slow = steps.step("a", () => new Promise<string>((resolve) => (finish = resolve)));
    expect(await steps.step("b", async () => "b")).toBe("b");
    expect(gate.pending).toBe(1);
    let drained = false;
    const draining = gate.drain().then(() => {
      drained = true;
    });
    // A step asked for while draining never starts.
    let late = false;
    void steps.step("c", async () => {
      late = true;
      return "c";
    });
    void steps.recv("topic");
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(drained).toBe(false);
    finish("a");
    await draining;
    expect(await slow).toBe("a");
    expect(drained).toBe(true);
    expect(late).toBe(false);
    expect(memory.steps().map((s) => s.name)).toEqual(["a", "b"]);
  });

  it("drains at once when nothing is in flight", async () => {
    await expect(new StepGate().drain()).resolves.toBeUndefined();
  });
});

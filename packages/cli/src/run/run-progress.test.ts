import type { RunEvent } from "@runvil/protocol";
import { describe, expect, it } from "vitest";
import { RunProgress } from "./run-progress";

function event(
  type: "run_started" | "section_entered" | "lua_checkpoint" | "tool_call_started",
  section: string,
): RunEvent {
  return {
    seq: 1,
    type,
    execution: "run-1",
    chain: "0",
    entry: null,
    section,
  } as unknown as RunEvent;
}

describe("RunProgress", () => {
  it("names the section and counts effects, then tool calls once there is one", () => {
    const progress = new RunProgress();
    expect(progress.text).toBe("");
    expect(progress.event(event("run_started", "T"))).toBe(true);
    expect(progress.text).toBe("running: T · 0 effects");
    expect(progress.event(event("section_entered", "Main"))).toBe(true);
    expect(progress.storeOp()).toBe(true);
    expect(progress.text).toBe("running: Main · 1 effect");
    // A catalog tool: its event and its effect, one call.
    expect(progress.event(event("tool_call_started", "Main"))).toBe(true);
    expect(progress.toolEffect()).toBe(true);
    expect(progress.text).toBe("running: Main · 2 effects · 1 tool call");
    // A local tool or a task built-in: an event and no effect.
    expect(progress.event(event("tool_call_started", "Main"))).toBe(true);
    expect(progress.text).toBe("running: Main · 2 effects · 2 tool calls");
  });

  it("reports no change for events that do not move the line", () => {
    const progress = new RunProgress();
    progress.event(event("section_entered", "Main"));
    expect(progress.event(event("lua_checkpoint", "Main"))).toBe(false);
    expect(progress.event(event("section_entered", "Main"))).toBe(false);
  });
});

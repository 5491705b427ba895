import { describe, expect, it } from "vitest";
import { ProgressLine } from "./progress-line";

describe("ProgressLine", () => {
  it("redraws in place only when the text changes and clears once", () => {
    const written: string[] = [];
    const line = new ProgressLine((text) => written.push(text));
    line.clear();
    line.show("running: A · 0 effects");
    line.show("running: A · 0 effects");
    line.show("running: A · 1 effect");
    line.clear();
    line.clear();
    line.show("running: A · 1 effect");
    expect(written).toEqual([
      "\r\x1b[2Krunning: A · 0 effects",
      "\r\x1b[2Krunning: A · 1 effect",
      "\r\x1b[2K",
      "\r\x1b[2Krunning: A · 1 effect",
    ]);
  });
});

import { describe, expect, it } from "vitest";
import { formatEventLine } from "./run-event";

describe("formatEventLine", () => {
  it("writes an event as one JSON line, envelope first", () => {
    const line = formatEventLine({
      type: "chunk_started",
      block: "section `A` prologue",
      section: "A",
      entry: "0.1",
      chain: "0",
      execution: "run-1",
      seq: 3,
    });
    expect(line).toBe(
      '{"seq":3,"type":"chunk_started","execution":"run-1","chain":"0","entry":"0.1","section":"A","block":"section `A` prologue"}\n',
    );
  });
});

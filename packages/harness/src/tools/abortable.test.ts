import { describe, expect, it } from "vitest";
import { joinSignals } from "./abortable";

describe("joinSignals", () => {
  it("aborts with the reason of whichever source aborts first", () => {
    const a = new AbortController();
    const b = new AbortController();
    const joined = joinSignals(a.signal, b.signal);
    expect(joined.signal.aborted).toBe(false);
    b.abort("stopped");
    a.abort("cancelled");
    expect([joined.signal.aborted, joined.signal.reason]).toEqual([true, "stopped"]);
  });

  it("returns a source that is already aborted as it is", () => {
    const a = new AbortController();
    a.abort("gone");
    const b = new AbortController();
    expect(joinSignals(a.signal, b.signal).signal).toBe(a.signal);
    expect(joinSignals(b.signal, a.signal).signal).toBe(a.signal);
  });

  it("detaches from both sources on release: the joined signal then never aborts", () => {
    const a = new AbortController();
    const b = new AbortController();
    const joined = joinSignals(a.signal, b.signal);
    joined.release();
    a.abort("late");
    b.abort("late");
    expect(joined.signal.aborted).toBe(false);
  });
});

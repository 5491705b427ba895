import { describe, expect, it } from "vitest";
import { formatStartupMark } from "./startup-marks";

describe("formatStartupMark", () => {
  it("names the time since the origin, the thread and the mark", () => {
    expect(formatStartupMark("bundle loaded", 123.456, false)).toBe(
      "runvil-mark 123.5 worker bundle loaded\n",
    );
    expect(formatStartupMark("exit", 7, true)).toBe("runvil-mark 7.0 main exit\n");
  });
});

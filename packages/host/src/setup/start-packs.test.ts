import { describe, expect, it } from "vitest";
import { START_FAILED_REASON, startFailureReason } from "./start-packs";

describe("startFailureReason", () => {
  it("is the error's message", () => {
    expect(startFailureReason(new Error("the web Pack failed to start"))).toBe(
      "the web Pack failed to start",
    );
    expect(startFailureReason("no network")).toBe("no network");
  });

  it("puts a message of several lines on one line", () => {
    expect(startFailureReason(new Error("cannot reach the index:\n  connection refused\n"))).toBe(
      "cannot reach the index: connection refused",
    );
  });

  it("falls back to a fixed reason for an empty message", () => {
    expect(startFailureReason(new Error(""))).toBe(START_FAILED_REASON);
    expect(START_FAILED_REASON).toBe("the Pack failed to start");
  });
});

import { describe, expect, it } from "vitest";
import { newRunId } from "./run-id";
import { checkRunInput } from "./run-input";

const GOOD = {
  runId: "r-1",
  prompt: { path: "a.md", text: "# A" },
  args: "",
  seed: 1,
  startedAt: 0,
  runvilVersion: "0.0.0",
};

describe("checkRunInput", () => {
  it("accepts a whole input", () => {
    expect(checkRunInput(GOOD, "submit")).toBe(GOOD);
    expect(checkRunInput({ ...GOOD, options: { store: "x" } }, "submit")).toMatchObject({
      options: { store: "x" },
    });
  });

  it.each([
    [{ ...GOOD, runId: "a b" }, "submit: runId must be a non-empty string without whitespace"],
    [{ ...GOOD, prompt: null }, "submit: prompt must be { path, text }"],
    [{ ...GOOD, prompt: { path: "a.md" } }, "submit: prompt.text must be a string"],
    [{ ...GOOD, seed: -1 }, "submit: seed must be a whole number from 0 to 2^53 - 1"],
    [{ ...GOOD, seed: 1.5 }, "submit: seed must be a whole number from 0 to 2^53 - 1"],
    [
      { ...GOOD, startedAt: "now" },
      "submit: startedAt must be a time in milliseconds since the epoch",
    ],
    [{ ...GOOD, runvilVersion: "" }, "submit: runvilVersion must be a non-empty string"],
    [{ ...GOOD, options: [] }, "submit: options must be a JSON object when given"],
    [[], "submit: the run input must be an object"],
  ])("refuses %j naming the field", (input, message) => {
    expect(() => checkRunInput(input, "submit")).toThrow(message);
  });
});

describe("newRunId", () => {
  it("is the journal's sortable format in UTC", () => {
    expect(newRunId(Date.UTC(2026, 11, 2, 0, 45, 12))).toMatch(/^20261202-004512-[0-9a-f]{6}$/);
    expect(newRunId()).not.toBe(newRunId());
  });
});

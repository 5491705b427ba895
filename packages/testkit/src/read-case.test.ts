import { describe, expect, it } from "vitest";
import { CASE_KEYS, readCase } from "./read-case";
import { issueCollector } from "./test-support";

describe("readCase", () => {
  it("lists the keys of a case", () => {
    expect(CASE_KEYS).toEqual([
      "name",
      "spec",
      "skip",
      "prompt",
      "prompt_file",
      "args",
      "host",
      "run",
      "models",
      "operator",
      "web",
      "store",
      "cancel_after_ms",
      "stop_after_ms",
      "expect",
    ]);
  });

  it("reads optional keys only when given", () => {
    const { sink, issues } = issueCollector();
    const read = readCase(
      sink,
      {
        name: "n",
        prompt: "",
        args: "",
        skip: "later",
        cancel_after_ms: 0,
        expect: { result: "" },
      },
      ["cases", 4],
      4,
      12,
    );
    expect(read).toMatchObject({
      index: 4,
      line: 12,
      name: "n",
      prompt: "",
      args: "",
      skip: "later",
      cancelAfterMs: 0,
    });
    expect(read !== undefined && "stopAfterMs" in read).toBe(false);
    expect(read !== undefined && "spec" in read).toBe(false);
    expect(issues).toEqual([]);
  });

  it("reports missing keys at the case", () => {
    const { sink, issues } = issueCollector();
    readCase(sink, { name: "n" }, ["cases", 0], 0, 1);
    expect(issues).toEqual([
      'cases[0]: missing required key "prompt"',
      'cases[0]: missing required key "expect"',
    ]);
  });
});

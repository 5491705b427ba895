import { describe, expect, it } from "vitest";
import type { CliIo } from "../io";
import { memoryIo } from "../test-io";
import { inputModeUsageError, lendsBroker, operatorBroker, parseInputMode } from "./input-mode";

function withOperator(isTTY: boolean, answers: string[] = []): CliIo {
  return {
    ...memoryIo({}),
    operator: {
      isTTY,
      broker: () => ({ ask: async () => answers.shift() ?? "none left" }),
    },
  };
}

describe("--input", () => {
  it("reads the three modes, auto by default", () => {
    expect(parseInputMode(undefined)).toBe("auto");
    expect(parseInputMode("stdin")).toBe("stdin");
    expect(parseInputMode("none")).toBe("none");
    expect(parseInputMode("tty")).toBeUndefined();
    expect(inputModeUsageError("tty")).toBe(
      'error: --input must be one of auto, stdin, none, got "tty"',
    );
  });

  it("lends a broker on a terminal (auto), always (stdin) or never (none)", () => {
    expect(lendsBroker("auto", withOperator(true))).toBe(true);
    expect(lendsBroker("auto", withOperator(false))).toBe(false);
    expect(lendsBroker("stdin", withOperator(false))).toBe(true);
    expect(lendsBroker("none", withOperator(true))).toBe(false);
    expect(lendsBroker("stdin", memoryIo({}))).toBe(false);
  });

  it("erases the progress line before each question", async () => {
    const calls: string[] = [];
    const broker = operatorBroker(withOperator(true, ["a", "b"]), () => calls.push("clear"));
    const signal = new AbortController().signal;
    expect(await broker?.ask({ signal })).toBe("a");
    expect(await broker?.ask({ signal })).toBe("b");
    expect(calls).toEqual(["clear", "clear"]);
    expect(operatorBroker(memoryIo({}), () => {})).toBeUndefined();
  });
});

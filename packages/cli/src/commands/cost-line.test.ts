import { NO_RUN_USAGE, type RunUsage, type TokenUsage } from "@runvil/protocol";
import { describe, expect, it } from "vitest";
import type { RunEnd } from "../run/run-handle";
import { memoryIo } from "../test-io";
import { formatCostLine, printCostLine } from "./cost-line";

function total(overrides: Partial<TokenUsage>): TokenUsage {
  return { ...NO_RUN_USAGE.total, ...overrides };
}

function usage(overrides: Partial<TokenUsage>): RunUsage {
  return { total: total(overrides), byModel: {}, bySection: {}, byTask: {}, sections: [] };
}

function finished(run: RunUsage): RunEnd {
  return {
    kind: "report",
    report: {
      kind: "finished",
      result: { outcome: "succeeded", result: "ok", var: {}, events: 3, usage: run },
    },
  };
}

describe("formatCostLine", () => {
  it("gives rounds, tokens and the exact cost", () => {
    expect(
      formatCostLine(
        usage({
          rounds: 2,
          inputTokens: 2200,
          outputTokens: 50,
          cachedInputTokens: 800,
          costUsd: "0.00519",
        }),
      ),
    ).toBe(
      "model usage: 2 rounds, 2250 tokens (2200 input of which 800 cached, 50 output), cost $0.00519",
    );
    expect(
      formatCostLine(usage({ rounds: 1, inputTokens: 9, outputTokens: 1, costUsd: "0.00002" })),
    ).toBe("model usage: 1 round, 10 tokens (9 input, 1 output), cost $0.00002");
  });

  it("says the cost is unknown, never 0, when a model has no prices", () => {
    expect(
      formatCostLine(
        usage({ rounds: 3, inputTokens: 3, outputTokens: 3, costUsd: null, unpricedRounds: 2 }),
      ),
    ).toBe(
      "model usage: 3 rounds, 6 tokens (3 input, 3 output), cost unknown (2 of 3 rounds ran on a model without prices)",
    );
  });

  it("says so for a run without model rounds", () => {
    expect(formatCostLine(usage({}))).toBe("model usage: no model rounds, cost $0");
  });
});

describe("printCostLine", () => {
  const spent = usage({ rounds: 1, inputTokens: 1, outputTokens: 1, costUsd: "0.1" });

  it("prints on a terminal's stderr when the run made rounds", () => {
    const io = { ...memoryIo({}), stderrIsTTY: true };
    const err: string[] = [];
    io.stderr = (text) => err.push(text);
    printCostLine(finished(spent), { cost: false, json: false }, io);
    printCostLine(finished(usage({})), { cost: false, json: false }, io);
    printCostLine(finished(spent), { cost: false, json: true }, io);
    expect(err).toEqual(["model usage: 1 round, 2 tokens (1 input, 1 output), cost $0.1\n"]);
  });

  it("prints nothing on a pipe unless --cost asks, and then even with --json", () => {
    const io = memoryIo({});
    printCostLine(finished(spent), { cost: false, json: false }, io);
    expect(io.err).toBe("");
    printCostLine(finished(usage({})), { cost: true, json: true }, io);
    expect(io.err).toBe("model usage: no model rounds, cost $0\n");
    expect(io.out).toBe("");
  });

  it("prints nothing for a run that never finished", () => {
    const io = memoryIo({});
    printCostLine({ kind: "terminated" }, { cost: true, json: false }, io);
    printCostLine(
      { kind: "report", report: { kind: "refused", notice: "no" } },
      { cost: true, json: false },
      io,
    );
    expect(io.err).toBe("");
  });
});

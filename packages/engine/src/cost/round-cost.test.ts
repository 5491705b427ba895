import { describe, expect, it } from "vitest";
import { estimatedCost, roundCost } from "./round-cost";

const SONNET = { inputPerMillion: 3, outputPerMillion: 15, cachedInputPerMillion: 0.3 };

describe("roundCost", () => {
  it("prices input and output per million tokens", () => {
    const cost = roundCost({ inputTokens: 1200, outputTokens: 40 }, SONNET);
    // 1200 × 3 + 40 × 15 = 4200 micro-dollars
    expect(cost?.toString()).toBe("0.0042");
  });

  it("prices cached input at the cached price, the rest at the input price", () => {
    const cost = roundCost({ inputTokens: 1000, outputTokens: 0, cachedInputTokens: 800 }, SONNET);
    // 200 × 3 + 800 × 0.3 = 840 micro-dollars
    expect(cost?.toString()).toBe("0.00084");
  });

  it("prices cached input at the input price when the model gives no cached price", () => {
    const prices = { inputPerMillion: 2, outputPerMillion: 8 };
    expect(
      roundCost({ inputTokens: 10, outputTokens: 0, cachedInputTokens: 10 }, prices)?.toString(),
    ).toBe("0.00002");
  });

  it("counts at most the input tokens as cached", () => {
    const cost = roundCost({ inputTokens: 10, outputTokens: 0, cachedInputTokens: 50 }, SONNET);
    expect(cost?.toString()).toBe("0.000003");
  });

  it("keeps fractions of a micro-dollar", () => {
    const cost = roundCost(
      { inputTokens: 1, outputTokens: 1 },
      {
        inputPerMillion: 0.075,
        outputPerMillion: 0.3,
      },
    );
    expect(cost?.toString()).toBe("0.000000375");
  });

  it("has no cost for a model without prices", () => {
    expect(roundCost({ inputTokens: 5, outputTokens: 5 }, undefined)).toBeUndefined();
  });

  it("prices free models at exactly 0", () => {
    const free = { inputPerMillion: 0, outputPerMillion: 0 };
    expect(roundCost({ inputTokens: 5, outputTokens: 5 }, free)?.toString()).toBe("0");
  });
});

describe("estimatedCost", () => {
  it("prices the estimate as uncached input and the max output as output", () => {
    expect(estimatedCost(1000, 500, SONNET)?.toString()).toBe("0.0105");
    expect(estimatedCost(1000, 500, undefined)).toBeUndefined();
  });
});

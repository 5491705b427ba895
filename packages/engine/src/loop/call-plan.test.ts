import { describe, expect, it } from "vitest";
import type { CallRoute } from "./advertised-tools";
import { planCalls } from "./call-plan";
import { catalogTool } from "./test-support";

const C: CallRoute = { kind: "catalog", tool: catalogTool("web/search") };
const L: CallRoute = { kind: "local" };
const B: CallRoute = { kind: "builtin" };

describe("planCalls", () => {
  it("starts consecutive catalog calls together as one batch", () => {
    expect(planCalls([C])).toEqual([{ kind: "batch", calls: [0] }]);
    expect(planCalls([C, C, C, C])).toEqual([{ kind: "batch", calls: [0, 1, 2, 3] }]);
  });

  it("stops a batch at a local or built-in call, which runs alone, then starts a new batch", () => {
    expect(planCalls([C, L, B, C])).toEqual([
      { kind: "batch", calls: [0] },
      { kind: "alone", call: 1 },
      { kind: "alone", call: 2 },
      { kind: "batch", calls: [3] },
    ]);
    expect(planCalls([L, L])).toEqual([
      { kind: "alone", call: 0 },
      { kind: "alone", call: 1 },
    ]);
    expect(planCalls([B, C, C, L])).toEqual([
      { kind: "alone", call: 0 },
      { kind: "batch", calls: [1, 2] },
      { kind: "alone", call: 3 },
    ]);
  });

  it("plans nothing for no calls", () => {
    expect(planCalls([])).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import { DurableError } from "./durable-error";
import { planRecovery } from "./recovery-plan";

describe("planRecovery", () => {
  it("plans nothing for a first execution", () => {
    expect(planRecovery("r", [])).toEqual([]);
  });

  it("takes every recorded position again in order: effects, asks (three positions) and gaps", () => {
    const plan = planRecovery("r", [
      { functionID: 0, name: "runvil:1/1", output: "a" },
      { functionID: 2, name: "runvil:1/3", output: "c" },
      { functionID: 3, name: "runvil.ask:1/4", output: "q" },
      { functionID: 4, name: "DBOS.recv", output: { text: "yes" } },
      { functionID: 5, name: "DBOS.sleep", output: 1 },
      { functionID: 6, name: "runvil.gap", output: "" },
      { functionID: 7, name: "runvil.ask:2/1", output: "q" },
      { functionID: 9, name: "DBOS.sleep", output: 1 },
    ]);
    expect(plan).toEqual([
      { kind: "effect", position: 0, effect: "1/1", output: "a" },
      { kind: "gap", position: 1 },
      { kind: "effect", position: 2, effect: "1/3", output: "c" },
      { kind: "ask", position: 3, effect: "1/4", answered: true, answer: { text: "yes" } },
      { kind: "gap", position: 6 },
      { kind: "ask", position: 7, effect: "2/1", answered: false, answer: undefined },
    ]);
  });

  it("takes the sleep of an ask whose marker never recorded again after two gaps (the sleep's insert raced ahead)", () => {
    // The second ask of a run listed while its marker's step was still in flight: DBOS's recv
    // had already recorded its timeout's sleep at position 6.
    const listed = [
      { functionID: 0, name: "runvil.ask:0.1/1", output: "q" },
      { functionID: 1, name: "DBOS.recv", output: { text: "yes" } },
      { functionID: 2, name: "DBOS.sleep", output: 1 },
      { functionID: 3, name: "runvil:0.1/2", output: "w" },
      { functionID: 6, name: "DBOS.sleep", output: 1 },
    ];
    const expected = [
      { kind: "ask", position: 0, effect: "0.1/1", answered: true, answer: { text: "yes" } },
      { kind: "effect", position: 3, effect: "0.1/2", output: "w" },
      { kind: "gap", position: 4 },
      { kind: "gap", position: 5 },
      { kind: "sleep", position: 6 },
    ];
    expect(planRecovery("r", listed)).toEqual(expected);
    // A recovery filled positions 4 and 5 with gap steps: the next one plans the same.
    const recovered = [
      ...listed,
      { functionID: 4, name: "runvil.gap", output: "" },
      { functionID: 5, name: "runvil.gap", output: "" },
    ];
    expect(planRecovery("r", recovered)).toEqual(expected);
  });

  it("refuses a sleep that follows a recorded effect, naming the position", () => {
    expect(() =>
      planRecovery("r1", [
        { functionID: 0, name: "runvil:1/1", output: "x" },
        { functionID: 1, name: "DBOS.sleep", output: 1 },
      ]),
    ).toThrow(/position 1 is "DBOS.sleep", where a Runvil effect, ask or gap step belongs/);
    expect(() =>
      planRecovery("r1", [
        { functionID: 0, name: "runvil:1/1", output: "x" },
        { functionID: 2, name: "DBOS.sleep", output: 1 },
      ]),
    ).toThrow(/position 2 is "DBOS.sleep"/);
  });

  it("refuses a step this package does not record, naming the run and the position", () => {
    expect(() => planRecovery("r1", [{ functionID: 0, name: "someStep", output: null }])).toThrow(
      new DurableError(
        "invalid",
        'run r1: the step recorded at position 0 is "someStep", where a Runvil effect, ask or gap step belongs; this run was not recorded by @runvil/durable',
      ),
    );
  });

  it("refuses an ask whose next position is not its recv", () => {
    expect(() =>
      planRecovery("r1", [
        { functionID: 0, name: "runvil.ask:1/1", output: "q" },
        { functionID: 1, name: "runvil:1/2", output: "x" },
      ]),
    ).toThrow(/position 1 is "runvil:1\/2", where DBOS.recv belongs/);
  });

  it("reads a live run's ask whose recv recorded its deadline before its marker as not waiting yet", () => {
    const steps = [
      { functionID: 0, name: "runvil:1/1", output: "a" },
      { functionID: 3, name: "DBOS.sleep", output: 1 },
    ];
    expect(planRecovery("r1", steps, { live: true })).toEqual([
      { kind: "effect", position: 0, effect: "1/1", output: "a" },
      { kind: "gap", position: 1 },
      { kind: "gap", position: 2 },
      { kind: "gap", position: 3 },
    ]);
    // A recovery takes the same record's sleep again as DBOS's own step (the ask is asked anew).
    expect(planRecovery("r1", steps).at(-1)).toEqual({ kind: "sleep", position: 3 });
  });
});

import { describe, expect, it } from "vitest";
import { ExecutionParked, ExecutionParking, type ParkingDeps } from "./ask-parking";
import type { ParkOutcome } from "./park-sql";
import type { WorkflowSteps } from "./workflow-steps";

/** Steps that note each call as it starts and answer at once. */
function notingSteps(calls: string[]): WorkflowSteps {
  return {
    step: (name) => {
      calls.push(name);
      return Promise.resolve(name);
    },
    recv: (topic) => {
      calls.push(`recv ${topic}`);
      return Promise.resolve(null);
    },
  };
}

/** A parking whose `park` waits for the test to decide; notes and outcomes kept. */
function parkingWith(decide: () => Promise<ParkOutcome>, afterMs = 0) {
  const notes: string[] = [];
  const asked: (readonly string[])[] = [];
  let stopped: ExecutionParked | undefined;
  const deps: ParkingDeps = {
    afterMs,
    retryMs: 5,
    park: (request) => {
      asked.push(request.asks);
      return decide();
    },
    active: () => true,
    note: (note) => notes.push(note),
  };
  const parking = new ExecutionParking({
    runId: "run-1",
    ownerXid: "owner-1",
    deps,
    onParked: (reason) => {
      stopped = reason;
    },
  });
  return { parking, notes, asked, stopped: () => stopped };
}

const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the parking of one execution", () => {
  it("holds the steps asked for while a park is decided and starts them in order when it is not parked", async () => {
    let answer: (outcome: ParkOutcome) => void = () => {};
    const { parking, asked } = parkingWith(
      () => new Promise<ParkOutcome>((resolve) => (answer = resolve)),
    );
    const calls: string[] = [];
    const steps = parking.gate(notingSteps(calls));
    parking.askWaiting("ask-a");
    await tick();
    expect(asked).toEqual([["ask-a"]]);
    const first = steps.step("runvil:e1", async () => "");
    const second = steps.recv("ask-b");
    await tick();
    expect(calls).toEqual([]);
    answer("answered");
    expect(await first).toBe("runvil:e1");
    expect(await second).toBeNull();
    expect(calls).toEqual(["runvil:e1", "recv ask-b"]);
  });

  it("parks a run waiting on asks alone: held and later steps never start, the Engine is stopped", async () => {
    let answer: (outcome: ParkOutcome) => void = () => {};
    const { parking, notes, stopped } = parkingWith(
      () => new Promise<ParkOutcome>((resolve) => (answer = resolve)),
    );
    const calls: string[] = [];
    const steps = parking.gate(notingSteps(calls));
    parking.askWaiting("ask-a");
    parking.askWaiting("ask-b");
    await tick();
    const held = steps.step("runvil:e1", async () => "");
    answer("parked");
    await expect(held).rejects.toBeInstanceOf(ExecutionParked);
    await expect(steps.step("runvil:e2", async () => "")).rejects.toBeInstanceOf(ExecutionParked);
    expect(calls).toEqual([]);
    expect(stopped()?.message).toBe(
      "run run-1 was parked on its ask ask-a: its record goes on once answered",
    );
    expect(notes).toEqual([
      "parked run run-1 on its ask ask-a: its slot is free; an answer puts it back on the queue",
    ]);
  });

  it("does not park while another effect is in flight, nor before the wait has passed", async () => {
    const { parking, asked } = parkingWith(() => Promise.resolve("parked"), 30);
    parking.askWaiting("ask-a");
    parking.effectStarted();
    await tick(50);
    expect(asked).toEqual([]);
    parking.effectSettled();
    await tick(5);
    expect(asked).toEqual([]);
    await tick(50);
    expect(asked).toEqual([["ask-a"]]);
  });

  it("keeps the slot when the database cannot be asked, says so, and tries again", async () => {
    const outcomes: (() => Promise<ParkOutcome>)[] = [
      () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:5432")),
      () => Promise.resolve("parked"),
    ];
    const { parking, notes, stopped } = parkingWith(() =>
      (outcomes.shift() as () => Promise<ParkOutcome>)(),
    );
    const calls: string[] = [];
    const steps = parking.gate(notingSteps(calls));
    parking.askWaiting("ask-a");
    await tick();
    expect(notes).toEqual([
      "run run-1: cannot park it on its ask (connect ECONNREFUSED 127.0.0.1:5432); it keeps its slot, trying again in 5 ms",
    ]);
    expect(stopped()).toBeUndefined();
    expect(await steps.step("runvil:e1", async () => "")).toBe("runvil:e1");
    parking.effectStarted();
    parking.effectSettled();
    await tick(20);
    expect(stopped()).toBeInstanceOf(ExecutionParked);
  });

  it("stops trying once the run is no longer this execution's", async () => {
    const { parking, asked } = parkingWith(() => Promise.resolve("not_owner"));
    parking.askWaiting("ask-a");
    await tick(20);
    parking.askWaiting("ask-b");
    await tick(20);
    expect(asked).toEqual([["ask-a"]]);
  });
});

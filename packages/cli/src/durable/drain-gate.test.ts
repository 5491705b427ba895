import type { EffectPort, ToolCallRequest } from "@runvil/protocol";
import { describe, expect, it } from "vitest";
import { DrainGate } from "./drain-gate";

/** A port whose effects settle when the test says so. */
function manualPort(): { port: EffectPort; settle: () => void; started: string[] } {
  const pending: (() => void)[] = [];
  const started: string[] = [];
  const wait = <T>(name: string, value: T): Promise<T> => {
    started.push(name);
    return new Promise((resolve) => pending.push(() => resolve(value)));
  };
  const port: EffectPort = {
    storeOp: () => wait("store", undefined as never),
    toolCall: (request) => wait(request.tool, { text: "ok" } as never),
    modelRound: () => wait("model", {} as never),
    emit: () => {},
  };
  return {
    port,
    settle: () => {
      for (const resolve of pending.splice(0)) resolve();
    },
    started,
  };
}

const call = (tool: string): ToolCallRequest => ({ tool }) as unknown as ToolCallRequest;

describe("DrainGate", () => {
  it("waits for the effects in flight, holds new ones, and ignores asks", async () => {
    const gate = new DrainGate((request) => request.tool === "user-input/ask");
    const { port, settle, started } = manualPort();
    const gated = gate.wrap(port);
    const first = gated.storeOp({} as never);
    void gated.toolCall?.(call("user-input/ask"));
    expect(gate.inFlight).toBe(1);
    gate.close();
    let drained = false;
    const done = gate.drained().then(() => {
      drained = true;
    });
    void gated.toolCall?.(call("echo/say"));
    void gated.modelRound?.({} as never);
    await Promise.resolve();
    expect(drained).toBe(false);
    settle();
    await first;
    await done;
    expect(drained).toBe(true);
    expect(started).toEqual(["store", "user-input/ask"]);
  });

  it("is drained at once when nothing is in flight", async () => {
    const gate = new DrainGate(() => false);
    gate.close();
    await expect(gate.drained()).resolves.toBeUndefined();
  });
});

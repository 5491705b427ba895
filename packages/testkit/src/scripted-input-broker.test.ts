import { describe, expect, it } from "vitest";
import { HELD_WAIT_ENDED, ScriptedInputBroker } from "./scripted-input-broker";

const live = () => new AbortController().signal;

describe("ScriptedInputBroker", () => {
  it("answers asks in order, byte for byte", async () => {
    const broker = new ScriptedInputBroker([
      { kind: "answer", text: "hi" },
      { kind: "answer", text: "  two\n\tthree  " },
    ]);
    expect(await broker.ask({ signal: live() })).toBe("hi");
    expect(await broker.ask({ signal: live(), prompt: "Colour?" })).toBe("  two\n\tthree  ");
    expect(broker.prompts).toEqual([undefined, "Colour?"]);
    expect([broker.askCount, broker.remaining, broker.ranOut]).toEqual([2, 0, undefined]);
  });

  it("rejects a fail entry with an Error carrying its message", async () => {
    const broker = new ScriptedInputBroker([
      { kind: "fail", message: "the operator's window closed" },
      { kind: "answer", text: "after" },
    ]);
    const error = await broker.ask({ signal: live() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe("the operator's window closed");
    expect(await broker.ask({ signal: live() })).toBe("after");
  });

  it("holds a wait until its signal aborts, then rejects", async () => {
    const broker = new ScriptedInputBroker([{ kind: "hold" }]);
    const controller = new AbortController();
    let settled = false;
    const wait = broker.ask({ signal: controller.signal }).finally(() => {
      settled = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    controller.abort();
    await expect(wait).rejects.toThrow(HELD_WAIT_ENDED);
    expect(HELD_WAIT_ENDED).toBe("the wait for the operator ended before an answer");
    expect(broker.ranOut).toBeUndefined();
  });

  it("rejects once the answers run out and keeps the first ask that found none", async () => {
    const broker = new ScriptedInputBroker([{ kind: "answer", text: "only" }]);
    await broker.ask({ signal: live() });
    await expect(broker.ask({ signal: live() })).rejects.toThrow(
      "the scenario scripts no operator answer for ask 2",
    );
    await expect(broker.ask({ signal: live() })).rejects.toThrow(
      "the scenario scripts no operator answer for ask 3",
    );
    expect(broker.ranOut).toBe("the scenario scripts no operator answer for ask 2");
  });

  it("an ask with no answers at all runs out at ask 1", async () => {
    const broker = new ScriptedInputBroker([]);
    await expect(broker.ask({ signal: live() })).rejects.toThrow(
      "the scenario scripts no operator answer for ask 1",
    );
    expect(broker.ranOut).toBe("the scenario scripts no operator answer for ask 1");
  });

  it("rejects an ask whose signal already aborted without using an entry", async () => {
    const broker = new ScriptedInputBroker([{ kind: "answer", text: "kept" }]);
    const controller = new AbortController();
    controller.abort();
    await expect(broker.ask({ signal: controller.signal })).rejects.toThrow(HELD_WAIT_ENDED);
    expect([broker.askCount, broker.ranOut]).toEqual([0, undefined]);
    expect(await broker.ask({ signal: live() })).toBe("kept");
  });
});

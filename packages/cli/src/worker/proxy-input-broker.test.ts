import { describe, expect, it } from "vitest";
import type { FromWorker } from "./messages";
import { ASK_WITHDRAWN_MESSAGE, ProxyInputBroker } from "./proxy-input-broker";

describe("ProxyInputBroker", () => {
  it("posts each ask with its prompt and resolves with the posted answer", async () => {
    const posted: FromWorker[] = [];
    const broker = new ProxyInputBroker((message) => posted.push(message));
    const signal = new AbortController().signal;
    const first = broker.ask({ signal });
    const second = broker.ask({ prompt: "name? ", signal });
    expect(posted).toEqual([
      { type: "ask", id: 1 },
      { type: "ask", id: 2, prompt: "name? " },
    ]);
    broker.answer(2, "ada");
    broker.answer(1, "yes");
    expect(await first).toBe("yes");
    expect(await second).toBe("ada");
  });

  it("rejects with the main thread's message", async () => {
    const broker = new ProxyInputBroker(() => {});
    const asked = broker.ask({ signal: new AbortController().signal });
    broker.fail(1, "the operator's window closed");
    await expect(asked).rejects.toThrow("the operator's window closed");
  });

  it("withdraws an ask whose signal aborts, and ignores a late answer", async () => {
    const posted: FromWorker[] = [];
    const broker = new ProxyInputBroker((message) => posted.push(message));
    const controller = new AbortController();
    const asked = broker.ask({ signal: controller.signal });
    controller.abort();
    await expect(asked).rejects.toThrow(ASK_WITHDRAWN_MESSAGE);
    expect(posted.at(-1)).toEqual({ type: "ask-withdrawn", id: 1 });
    broker.answer(1, "late");
    await expect(broker.ask({ signal: controller.signal })).rejects.toMatchObject({
      name: "AbortError",
    });
    expect(posted).toHaveLength(2);
  });
});

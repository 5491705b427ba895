import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { LineInputBroker } from "./line-input-broker";

function setup(prompt?: string) {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = "";
  output.on("data", (chunk: Buffer) => {
    written += chunk.toString("utf8");
  });
  const broker = new LineInputBroker({
    input,
    output,
    ...(prompt === undefined ? {} : { prompt }),
  });
  return { input, output, broker, written: () => written };
}

const signal = (): AbortSignal => new AbortController().signal;

describe("LineInputBroker", () => {
  it("writes the default prompt and resolves with the next line, exactly as typed", async () => {
    const { input, broker, written } = setup("> ");
    const answer = broker.ask({ signal: signal() });
    expect(written()).toBe("> ");
    input.write("  two leading\tand trailing  \n");
    expect(await answer).toBe("  two leading\tand trailing  ");
  });

  it("prefers the request's prompt, and writes none without one", async () => {
    const { input, broker, written } = setup("> ");
    const first = broker.ask({ prompt: "Name? ", signal: signal() });
    input.write("Ada\n");
    expect(await first).toBe("Ada");
    expect(written()).toBe("Name? ");
    const quiet = setup();
    const second = quiet.broker.ask({ signal: signal() });
    quiet.input.write("x\n");
    expect(await second).toBe("x");
    expect(quiet.written()).toBe("");
  });

  it("drops a CRLF line end", async () => {
    const { input, broker } = setup();
    const answer = broker.ask({ signal: signal() });
    input.write("windows\r\n");
    expect(await answer).toBe("windows");
  });

  it("keeps lines that arrive while nobody asks, for the next asks in order", async () => {
    const { input, broker, written } = setup("> ");
    const first = broker.ask({ signal: signal() });
    input.write("one\ntwo\nthree\n");
    expect(await first).toBe("one");
    expect(await broker.ask({ signal: signal() })).toBe("two");
    expect(await broker.ask({ signal: signal() })).toBe("three");
    expect(written()).toBe("> ");
  });

  it("answers concurrent asks first come, first served", async () => {
    const { input, broker } = setup();
    const first = broker.ask({ signal: signal() });
    const second = broker.ask({ signal: signal() });
    input.write("a\nb\n");
    expect([await first, await second]).toEqual(["a", "b"]);
  });

  it("joins a line written in pieces", async () => {
    const { input, broker } = setup();
    const answer = broker.ask({ signal: signal() });
    input.write("hel");
    input.write("lo\n");
    expect(await answer).toBe("hello");
  });

  it("rejects with the operator's window closed when the input ends", async () => {
    const { input, broker } = setup();
    const answer = broker.ask({ signal: signal() });
    input.end();
    await expect(answer).rejects.toThrow(/^the operator's window closed$/);
    await expect(broker.ask({ signal: signal() })).rejects.toThrow(
      /^the operator's window closed$/,
    );
  });

  it("answers an unfinished last line once before the window closes", async () => {
    const { input, broker } = setup();
    const answer = broker.ask({ signal: signal() });
    input.end("last words");
    expect(await answer).toBe("last words");
    await expect(broker.ask({ signal: signal() })).rejects.toThrow("the operator's window closed");
  });

  it("rejects with the window closed, keeping the stream error as the cause", async () => {
    const { input, broker } = setup();
    const answer = broker.ask({ signal: signal() });
    const error = new Error("EIO: read failed");
    input.destroy(error);
    const rejection = await answer.catch((caught: unknown) => caught);
    expect((rejection as Error).message).toBe("the operator's window closed");
    expect((rejection as Error).cause).toBe(error);
  });

  it("withdraws an ask whose signal aborts, ending its prompt line", async () => {
    const { input, broker, written } = setup("> ");
    const controller = new AbortController();
    const answer = broker.ask({ signal: controller.signal });
    controller.abort(new Error("run cancelled"));
    const rejection = (await answer.catch((caught: unknown) => caught)) as Error;
    expect(rejection.name).toBe("AbortError");
    expect(rejection.message).toBe("the question was withdrawn");
    expect(written()).toBe("> \n");
    expect(input.isPaused()).toBe(true);
    const next = broker.ask({ signal: signal() });
    input.write("for the next ask\n");
    expect(await next).toBe("for the next ask");
  });

  it("rejects at once for an already aborted signal, writing nothing", async () => {
    const { broker, written } = setup("> ");
    const controller = new AbortController();
    controller.abort();
    await expect(broker.ask({ signal: controller.signal })).rejects.toThrow(
      "the question was withdrawn",
    );
    expect(written()).toBe("");
  });

  it("reads the input only while an ask waits", async () => {
    const { input, broker } = setup();
    expect(input.listenerCount("data")).toBe(0);
    const answer = broker.ask({ signal: signal() });
    expect(input.isPaused()).toBe(false);
    input.write("x\n");
    await answer;
    expect(input.isPaused()).toBe(true);
  });

  it("close() fails waiting and later asks, leaving the stream open", async () => {
    const { input, broker } = setup();
    const answer = broker.ask({ signal: signal() });
    broker.close();
    await expect(answer).rejects.toThrow("the operator's window closed");
    await expect(broker.ask({ signal: signal() })).rejects.toThrow("the operator's window closed");
    expect(input.destroyed).toBe(false);
    expect(input.listenerCount("data")).toBe(0);
  });

  it("fails an ask on an input that had already ended", async () => {
    const input = new PassThrough();
    input.end();
    input.resume();
    await new Promise((resolve) => input.once("end", resolve));
    const broker = new LineInputBroker({ input });
    await expect(broker.ask({ signal: signal() })).rejects.toThrow("the operator's window closed");
  });
});

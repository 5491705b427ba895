import { INPUT_BROKER, type InputBroker, type InputRequest, ToolFailure } from "@runvil/sdk";
import { testToolContext } from "@runvil/sdk/testing";
import { describe, expect, it } from "vitest";
import { ASK_TOOL_DESCRIPTION, ASK_TOOL_ID, askTool } from "./ask-tool";

function broker(answer: (request: InputRequest) => Promise<string>) {
  const requests: InputRequest[] = [];
  const service: InputBroker = {
    ask(request) {
      requests.push(request);
      return answer(request);
    },
  };
  return { service, requests };
}

async function failure(promise: unknown): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    expect(ToolFailure.isInstance(error)).toBe(true);
    return error as Error;
  }
  throw new Error("expected a failure");
}

describe("user-input/ask", () => {
  it("is the chapter's tool: id, description, empty object schema, trusted, survives a stop", () => {
    expect(askTool.id).toBe("user-input/ask");
    expect(ASK_TOOL_ID).toBe("user-input/ask");
    expect(askTool.description).toBe("Wait for the operator's next message and return its text.");
    expect(ASK_TOOL_DESCRIPTION).toBe(askTool.description);
    expect(askTool.parameters).toEqual({ type: "object", properties: {} });
    expect(askTool.output).toBe("plain");
    expect(askTool.trust).toBe("trusted");
    expect(askTool.survivesStop).toBe(true);
  });

  it("answers the operator's text byte for byte, asking with only the call's signal", async () => {
    const text = "  two leading\n\tand a tab  ";
    const { service, requests } = broker(async () => text);
    const controller = new AbortController();
    const answer = await askTool.run(
      {},
      testToolContext({ services: { [INPUT_BROKER]: service }, signal: controller.signal }),
    );
    expect(answer).toBe(text);
    expect(requests).toEqual([{ signal: controller.signal }]);
  });

  it("ignores any arguments", async () => {
    const { service, requests } = broker(async () => "kept");
    const ctx = testToolContext({ services: { [INPUT_BROKER]: service } });
    expect(await askTool.run({ question: "name?", n: 1 }, ctx)).toBe("kept");
    expect(Object.keys(requests[0] ?? {})).toEqual(["signal"]);
  });

  it("turns a broker failure into a ToolFailure with its message, the cause hidden", async () => {
    const cause = new Error("socket 7 hung up");
    const rejection = new Error("the operator's window closed", { cause });
    const { service } = broker(() => Promise.reject(rejection));
    const error = await failure(
      askTool.run({}, testToolContext({ services: { [INPUT_BROKER]: service } })),
    );
    expect(error).toBeInstanceOf(ToolFailure);
    expect(error.message).toBe("the operator's window closed");
    expect(error.message).not.toContain("socket");
    expect(error.cause).toBe(rejection);
  });

  it("uses a string rejection as the message, and a generic one for anything else", async () => {
    const text = broker(() => Promise.reject("the operator left"));
    expect(
      (
        await failure(
          askTool.run({}, testToolContext({ services: { [INPUT_BROKER]: text.service } })),
        )
      ).message,
    ).toBe("the operator left");
    const odd = broker(() => Promise.reject({ code: 5 }));
    expect(
      (
        await failure(
          askTool.run({}, testToolContext({ services: { [INPUT_BROKER]: odd.service } })),
        )
      ).message,
    ).toBe("the operator's answer could not be read");
  });

  it("fails when the run has no input broker", async () => {
    expect((await failure(askTool.run({}, testToolContext()))).message).toBe(
      "this run has no operator to ask",
    );
  });
});

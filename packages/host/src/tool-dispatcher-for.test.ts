import { MemoryStore, RunPort } from "@runvil/harness";
import { defineTool, INPUT_BROKER, type InputBroker, ToolFailure } from "@runvil/sdk";
import { describe, expect, it } from "vitest";
import { createHost } from "./host";
import { packPlugin, testPack, usesPrompt } from "./test-support";
import { toolDispatcherFor } from "./tool-dispatcher-for";

const ORIGIN = { execution: "run-1", chain: "0", entry: "0.1", section: "Main", task: "t" };

describe("toolDispatcherFor", () => {
  it("runs a prepared run's tools with the run's services and store", async () => {
    const ask = defineTool({
      id: "user-input/ask",
      description: "Asks the operator.",
      parameters: { type: "object", properties: {} },
      trust: "trusted",
      run: async (_args, ctx) => {
        const broker = ctx.services.get(INPUT_BROKER);
        const answer = (await broker?.ask({ signal: ctx.signal })) ?? "no broker";
        await ctx.store.append("log.txt", `${ctx.origin.section}: ${answer}\n`);
        return answer;
      },
    });
    const host = await createHost({
      plugins: [
        {
          plugin: packPlugin("p", [
            testPack("runvil/user-input", [ask], { services: [INPUT_BROKER] }),
          ]),
        },
      ],
    });
    const broker: InputBroker = { ask: async () => "hi" };
    const prepared = host.prepare(usesPrompt("user-input"), {
      services: { [INPUT_BROKER]: broker },
    });
    if (!prepared.ok) throw new Error(prepared.notice);
    const store = new MemoryStore();
    const errors: unknown[] = [];
    const tools = toolDispatcherFor(prepared.run, {
      store,
      onToolError: (_id, error) => errors.push(error),
    });
    const port = new RunPort(store, { tools });
    const request = {
      tool: "user-input/ask",
      name: "user-input_ask",
      caller: "script" as const,
      callId: "",
      origin: ORIGIN,
      effect: "0.1/1",
      signal: new AbortController().signal,
    };
    expect(await port.toolCall({ ...request, arguments: {} })).toEqual({
      text: "hi",
      trusted: true,
    });
    expect(await store.read("log.txt")).toBe("Main: hi\n");
    const refused = await port.toolCall({ ...request, tool: "web/fetch", arguments: {} }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(ToolFailure.isInstance(refused)).toBe(false);
    expect(errors).toEqual([]);
  });
});

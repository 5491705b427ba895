import { MemoryStore, RunPort } from "@runvil/harness";
import { ModelFailure, type ModelRoundRequest } from "@runvil/sdk";
import { describe, expect, it } from "vitest";
import { createHost } from "./host";
import { modelPortFor } from "./model-port-for";
import { providerPlugin, rolesPrompt, testProvider, testRole } from "./test-support";

describe("modelPortFor", () => {
  it("runs a prepared run's rounds on the providers of its bound models", async () => {
    const seen: ModelRoundRequest[] = [];
    const echo = testProvider("echo", ["echo-1"]);
    const answering = {
      ...echo,
      round: async (request: ModelRoundRequest) => {
        seen.push(request);
        return {
          text: "pong",
          toolCalls: [],
          finishReason: "stop",
          usage: { inputTokens: 1, outputTokens: 1 },
        };
      },
    };
    const broken = {
      ...testProvider("broken", ["broken-1"]),
      round: async () => {
        throw new Error("socket hang up");
      },
    };
    const host = await createHost({
      plugins: [{ plugin: providerPlugin("p", answering, broken) }],
    });
    const prepared = host.prepare(
      rolesPrompt([
        testRole("writer", { model: ["echo-1"], system: "Be brief." }),
        testRole("critic", { model: ["broken-1"] }),
      ]),
    );
    if (!prepared.ok) throw new Error(prepared.notice);
    const errors: unknown[] = [];
    const models = modelPortFor(prepared.run, { onModelError: (error) => errors.push(error) });
    const port = new RunPort(new MemoryStore(), { models });
    const writer = prepared.run.models[0];
    if (writer === undefined) throw new Error("no writer");
    const reply = await port.modelRound({
      model: writer.model,
      ...(writer.system === undefined ? {} : { system: writer.system }),
      messages: [{ role: "user", content: "ping" }],
      tools: [],
      settings: writer.settings,
      signal: new AbortController().signal,
    });
    expect(reply.text).toBe("pong");
    expect(seen[0]?.system).toBe("Be brief.");
    const failure = await port
      .modelRound({
        model: "broken-1",
        messages: [],
        tools: [],
        settings: {},
        signal: new AbortController().signal,
      })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ModelFailure);
    expect((failure as ModelFailure).message).toBe("broken: the model round failed");
    expect(errors.map(String)).toEqual(["Error: socket hang up"]);
  });

  it("serves only the models the run is bound to", async () => {
    const host = await createHost({
      plugins: [{ plugin: providerPlugin("p", testProvider("a", ["a-1", "a-2"])) }],
    });
    const prepared = host.prepare(rolesPrompt([testRole("writer", { model: ["a-2"] })]));
    if (!prepared.ok) throw new Error(prepared.notice);
    const models = modelPortFor(prepared.run);
    expect([models.has("a-2"), models.has("a-1")]).toEqual([true, false]);
  });
});

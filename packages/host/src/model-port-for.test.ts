import { MemoryStore, RunPort } from "@runvil/harness";
import type { ModelRoundEffectRequest } from "@runvil/protocol";
import { ModelFailure, type ModelRoundRequest } from "@runvil/sdk";
import { describe, expect, it } from "vitest";
import { createHost } from "./host";
import { modelPortFor } from "./model-port-for";
import { providerPlugin, rolesPrompt, testProvider, testRole } from "./test-support";

/** A first `models.infer` round of role `role` on `model`. */
function roundOf(role: string, model: string): ModelRoundEffectRequest {
  return {
    role,
    model,
    via: "infer",
    turn: 1,
    messages: [{ role: "user", content: "ping" }],
    tools: [],
    settings: {},
    origin: { execution: "run-1", chain: "0", entry: "0.1", section: "Main", task: "t" },
    effect: "0.1/1",
    signal: new AbortController().signal,
    stopSignal: new AbortController().signal,
  };
}

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
      ...roundOf("writer", writer.model),
      ...(writer.system === undefined ? {} : { system: writer.system }),
      settings: writer.settings,
    });
    expect(reply.text).toBe("pong");
    expect(seen[0]?.system).toBe("Be brief.");
    const failure = await port
      .modelRound(roundOf("critic", "broken-1"))
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

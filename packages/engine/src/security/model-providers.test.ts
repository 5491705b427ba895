import { MemoryStore, RunPort } from "@runvil/harness";
import { createHost, modelPortFor, type PreparedRun } from "@runvil/host";
import type { RunResult } from "@runvil/protocol";
import {
  definePlugin,
  MODEL_SPECIFICATION_VERSION,
  type ModelReply,
  type ModelRoundRequest,
} from "@runvil/sdk";
import { describe, expect, it } from "vitest";
import { loadEngine } from "../run/engine";
import { headline } from "../test-support/failure";
import { parseForTest, promptText } from "../test-support/parse";

/**
 * Attack class: a model provider that misbehaves (docs/security.md), end to end through a Host,
 * the Harness's model port and the Engine. Whatever a provider throws or answers, its run sees
 * a clear failure in the right kind, the real error goes to the Host's log only, and another
 * run on the same Host, at the same time, is untouched.
 */

const reply = (text: string): ModelReply => ({
  text,
  toolCalls: [],
  finishReason: "stop",
  usage: { inputTokens: 1, outputTokens: 1 },
});

/** Each model's behaviour; `well` answers after the others have failed. */
const behaviours: Record<string, (request: ModelRoundRequest) => Promise<ModelReply>> = {
  throws: async () => {
    throw new TypeError("Cannot read properties of undefined (reading 'choices')");
  },
  "rejects-string": () => Promise.reject("socket hang up"),
  malformed: async () => ({ text: 42 }) as unknown as ModelReply,
  huge: async () => reply("x".repeat(10 * 1024 * 1024)),
  forever: async (request) => ({
    text: "",
    toolCalls: [{ id: `c${request.messages.length}`, name: "noop", arguments: {} }],
    finishReason: "tool_calls",
    usage: { inputTokens: 1, outputTokens: 1 },
  }),
  well: async () => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    return reply("all well");
  },
};

const host = await createHost({
  plugins: [
    {
      plugin: definePlugin({
        name: "misbehaving",
        setup(api) {
          api.addModelProvider({
            specificationVersion: MODEL_SPECIFICATION_VERSION,
            name: "shaky",
            models: Object.keys(behaviours).map((id) => ({
              id,
              contextWindow: 100_000_000,
              maxOutputTokens: 1000,
              tools: true,
            })),
            round: (request) => {
              const behaviour = behaviours[request.model];
              if (behaviour === undefined) throw new Error(`no behaviour for ${request.model}`);
              return behaviour(request);
            },
          });
        },
      }),
    },
  ],
});
const engine = await loadEngine();

/** One run of a section that talks to `model` with `lua`, and what the Host logged. */
async function runOn(model: string, lua: string): Promise<{ result: RunResult; log: unknown[] }> {
  const prompt = await parseForTest(
    promptText(
      `# T\n\n## Main\n\n\`\`\`lua\nmodels.use('writer')\n${lua}\n\`\`\`\n`,
      `models:\n  writer:\n    model: ${model}\n    max_rounds: 5\n`,
    ),
  );
  const prepared = host.prepare(prompt);
  if (!prepared.ok) throw new Error(prepared.notice);
  const run: PreparedRun = prepared.run;
  const log: unknown[] = [];
  const port = new RunPort(new MemoryStore(), {
    models: modelPortFor(run, { onModelError: (error) => log.push(error) }),
  });
  const result = await engine.run(prompt, { effects: port, catalog: run.catalog });
  return { result, log };
}

const INFER = "return models.infer('hello')";
const LOOP = [
  "tools.offer_local('noop', 'Does nothing', {}, function() return '' end)",
  "messages:user('go')",
  "return models.loop()",
].join("\n");

describe("security: a misbehaving model provider", () => {
  it("that throws ends its run as Completion with a generic message; the error goes to the log; a concurrent run is untouched", async () => {
    const [bad, good] = await Promise.all([runOn("throws", INFER), runOn("well", INFER)]);
    expect(bad.result.outcome).toBe("failed");
    if (bad.result.outcome !== "failed") return;
    expect(bad.result.error.kind).toBe("Completion");
    expect(headline(bad.result.error)).toContain("shaky: the model round failed");
    expect(bad.result.error.message).not.toContain("choices");
    expect(bad.log).toHaveLength(1);
    expect(String(bad.log[0])).toContain("Cannot read properties of undefined (reading 'choices')");
    expect(good.result).toMatchObject({ outcome: "succeeded", result: "all well" });
    expect(good.log).toEqual([]);
  });

  it("that rejects with a non-Error or answers a malformed reply is the same generic failure", async () => {
    for (const model of ["rejects-string", "malformed"]) {
      const { result, log } = await runOn(model, INFER);
      expect(result.outcome).toBe("failed");
      if (result.outcome !== "failed") continue;
      expect(result.error.kind).toBe("Completion");
      expect(headline(result.error)).toContain("shaky: the model round failed");
      expect(log).toHaveLength(1);
    }
  });

  it("that answers 10 MB of text is refused by the reply limit, in infer and in the loop", async () => {
    for (const lua of [INFER, LOOP]) {
      const { result } = await runOn("huge", lua);
      expect(result.outcome).toBe("failed");
      if (result.outcome !== "failed") continue;
      expect(result.error.kind).toBe("Completion");
      expect(headline(result.error)).toContain(
        "the model's reply is 10485760 bytes, over the 8388608-byte limit",
      );
    }
  });

  it("whose model calls tools forever hits the role's round cap", async () => {
    const { result } = await runOn("forever", LOOP);
    expect(result.outcome).toBe("failed");
    if (result.outcome !== "failed") return;
    expect(result.error.kind).toBe("Tool");
    expect(headline(result.error)).toContain("tool-call loop did not converge");
  });
});

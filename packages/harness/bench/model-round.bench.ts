import type { ModelRoundEffectRequest } from "@runvil/protocol";
import type { ModelProvider, ModelReply } from "@runvil/sdk";
import { bench, describe } from "vitest";
import { MemoryStore, ModelDispatcher, RunPort } from "../src/index";

/**
 * The Harness's share of one model round: RunPort.modelRound → ModelDispatcher → the provider
 * (which answers at once) → the reply's shape check and copy, against calling the provider
 * directly in the same run. Two replies: a text reply, and one with 8 tool calls whose
 * arguments are small JSON objects (what the per-call check walks).
 */

const OPTIONS = { time: 600, warmupTime: 100 };

const TEXT: ModelReply = {
  text: "The answer is 42.",
  toolCalls: [],
  finishReason: "stop",
  usage: { inputTokens: 1200, outputTokens: 12 },
};
const CALLS: ModelReply = {
  text: "",
  toolCalls: Array.from({ length: 8 }, (_, i) => ({
    id: `call_${i}`,
    name: "web_fetch",
    arguments: { url: `https://example.com/page/${i}`, options: { max_bytes: 65536, raw: false } },
  })),
  finishReason: "tool_calls",
  usage: { inputTokens: 2400, outputTokens: 180 },
};

function providerAnswering(reply: ModelReply): ModelProvider {
  return {
    specificationVersion: 1,
    name: "bench",
    models: [{ id: "bench-1", contextWindow: 200_000, maxOutputTokens: 32_000, tools: true }],
    round: async () => reply,
  };
}

const signal = new AbortController().signal;
const request: ModelRoundEffectRequest = {
  role: "writer",
  model: "bench-1",
  via: "loop",
  turn: 1,
  messages: [{ role: "user", content: "What is the answer?" }],
  tools: [],
  settings: {},
  origin: { execution: "run-1", chain: "0", entry: "0.1", section: "Main", task: "t" },
  effect: "0.1/1",
  signal,
  stopSignal: new AbortController().signal,
};

for (const [name, reply] of [
  ["a text reply", TEXT],
  ["a reply with 8 tool calls", CALLS],
] as const) {
  const provider = providerAnswering(reply);
  const port = new RunPort(new MemoryStore(), {
    models: new ModelDispatcher({ providers: new Map([["bench-1", provider]]) }),
  });
  describe(`one model round, ${name}`, () => {
    bench(
      "reference: the provider called directly",
      async () => {
        await provider.round({ ...request, signal });
      },
      OPTIONS,
    );
    bench(
      "RunPort.modelRound (dispatcher, stop signal joined, shape check)",
      async () => {
        await port.modelRound(request);
      },
      OPTIONS,
    );
  });
}

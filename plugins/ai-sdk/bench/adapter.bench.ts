import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3StreamPart,
} from "@ai-sdk/provider";
import type { ModelRoundRequest } from "@runvil/sdk";
import { afterAll, beforeAll, bench, describe } from "vitest";
import { createAiSdkProvider } from "../src/ai-sdk-provider";
import { chatCompletion, chatTextStream } from "../src/test-support/openai-chat-wire";
import { WireServer } from "../src/test-support/wire-server";
import { toCallOptions } from "../src/v3-prompt";

/**
 * The adapter's cost against a local OpenAI-compatible server (docs/design/providers.md §6):
 * one round through `createAiSdkProvider(...).round` against the same `doGenerate` call made
 * directly, and a streamed reply of 1,000 deltas through the adapter against reading the same
 * `doStream` directly. Same server, same run; the ratios are what the design note records.
 */
const TOKENS = 1000;
const generateServer = new WireServer();
const streamServer = new WireServer();
let generateModel: LanguageModelV3;
let streamModel: LanguageModelV3;
let generateRound: (request: ModelRoundRequest) => Promise<unknown>;
let streamRound: (request: ModelRoundRequest) => Promise<unknown>;
const request: ModelRoundRequest = {
  model: "local:qwen3",
  system: "Be brief.",
  messages: [
    { role: "user", content: "find x" },
    {
      role: "assistant",
      content: "",
      toolCalls: [{ id: "c1", name: "grab", arguments: { q: "x" } }],
    },
    { role: "tool", content: "found x", toolCallId: "c1", toolName: "grab" },
  ],
  tools: [
    {
      name: "grab",
      description: "Grabs.",
      parameters: { type: "object", properties: { q: { type: "string" } } },
    },
  ],
  settings: {},
  signal: new AbortController().signal,
  onProgress: () => {},
};
let options: LanguageModelV3CallOptions;

function provider(base: string, stream: boolean) {
  const local = createOpenAICompatible({ name: "local", baseURL: `${base}/v1` });
  return {
    model: local.chatModel("qwen3") as LanguageModelV3,
    round: createAiSdkProvider({
      name: "local",
      models: [
        {
          id: "local:qwen3",
          apiId: "qwen3",
          contextWindow: 32768,
          maxOutputTokens: 4096,
          tools: true,
        },
      ],
      languageModel: () => local.chatModel("qwen3"),
      stream,
    }),
  };
}

beforeAll(async () => {
  await generateServer.start();
  await streamServer.start();
  generateServer.answer({ json: chatCompletion({ content: "Hello there." }, "stop") });
  streamServer.answer({ sse: chatTextStream(Array.from({ length: TOKENS }, (_, i) => `t${i} `)) });
  const g = provider(generateServer.url, false);
  const s = provider(streamServer.url, true);
  generateModel = g.model;
  streamModel = s.model;
  generateRound = (r) => g.round.round(r);
  streamRound = (r) => s.round.round(r);
  options = toCallOptions(request, request.signal);
});

/** The median of `values`. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/**
 * Paired rounds, alternating which goes first: the median time of each and their ratio, so
 * the machine's load (shared cores) moves both sides alike.
 */
async function paired(
  pairs: number,
  reference: () => Promise<unknown>,
  measured: () => Promise<unknown>,
): Promise<{ reference: number; measured: number; ratio: number }> {
  const a: number[] = [];
  const b: number[] = [];
  const time = async (fn: () => Promise<unknown>): Promise<number> => {
    const start = performance.now();
    await fn();
    return performance.now() - start;
  };
  for (let i = 0; i < pairs; i += 1) {
    if (i % 2 === 0) {
      a.push(await time(reference));
      b.push(await time(measured));
    } else {
      b.push(await time(measured));
      a.push(await time(reference));
    }
  }
  const ratios = a.map((ref, i) => (b[i] as number) / ref);
  return { reference: median(a), measured: median(b), ratio: median(ratios) };
}

afterAll(async () => {
  const readStream = async () => {
    const { stream } = await streamModel.doStream(options);
    const reader = stream.getReader();
    for (;;) {
      const { done } = await reader.read();
      if (done) break;
    }
  };
  for (let i = 0; i < 20; i += 1) {
    await generateModel.doGenerate(options);
    await generateRound(request);
  }
  const round = await paired(
    400,
    async () => generateModel.doGenerate(options),
    () => generateRound(request),
  );
  // A control: the direct call against itself with the adapter's per-round setup (a fresh
  // signal, a timer, the prompt rebuilt): what the bench's own noise is on this machine.
  const control = await paired(
    400,
    async () => generateModel.doGenerate(options),
    async () => {
      const t = setTimeout(() => {}, 120_000);
      try {
        return await generateModel.doGenerate(toCallOptions(request, new AbortController().signal));
      } finally {
        clearTimeout(t);
      }
    },
  );
  const stream = await paired(40, readStream, () => streamRound(request));
  // The adapter's own work, without the network: a model that answers at once.
  const canned = await generateModel.doGenerate(options);
  const instant = {
    specificationVersion: "v3",
    provider: "instant",
    modelId: "instant",
    supportedUrls: {},
    doGenerate: async () => canned,
    doStream: async () => {
      throw new Error("not streamed");
    },
  } as unknown as LanguageModelV3;
  const instantRound = createAiSdkProvider({
    name: "instant",
    models: [
      { id: "instant:m", apiId: "m", contextWindow: 32768, maxOutputTokens: 4096, tools: true },
    ],
    languageModel: () => instant,
    stream: false,
  });
  const instantRequest = { ...request, model: "instant:m" };
  const batch = async (fn: () => Promise<unknown>) => {
    for (let i = 0; i < 1000; i += 1) await fn();
  };
  const own = await paired(
    40,
    () => batch(async () => instant.doGenerate(options)),
    () => batch(() => instantRound.round(instantRequest)),
  );
  // A canned stream of TOKENS text deltas, read directly and through the adapter.
  const cannedParts = (): ReadableStream<LanguageModelV3StreamPart> => {
    const parts: LanguageModelV3StreamPart[] = [
      { type: "stream-start", warnings: [] },
      { type: "text-start", id: "t" },
      ...Array.from({ length: TOKENS }, (_, i) => ({
        type: "text-delta" as const,
        id: "t",
        delta: `t${i} `,
      })),
      { type: "text-end", id: "t" },
      {
        type: "finish",
        finishReason: { unified: "stop", raw: "stop" },
        usage: {
          inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: TOKENS, text: TOKENS, reasoning: 0 },
        },
      },
    ];
    let i = 0;
    return new ReadableStream({
      pull(controller) {
        if (i < parts.length) controller.enqueue(parts[i++] as LanguageModelV3StreamPart);
        else controller.close();
      },
    });
  };
  const instantStream = {
    ...instant,
    doStream: async () => ({ stream: cannedParts() }),
  } as unknown as LanguageModelV3;
  const instantStreamRound = createAiSdkProvider({
    name: "instant",
    models: [
      { id: "instant:m", apiId: "m", contextWindow: 32768, maxOutputTokens: 4096, tools: true },
    ],
    languageModel: () => instantStream,
  });
  const ownStream = await paired(
    40,
    async () => {
      const reader = cannedParts().getReader();
      for (;;) if ((await reader.read()).done) break;
    },
    () => instantStreamRound.round(instantRequest),
  );
  console.log(
    `paired medians, an instant model: ${own.reference.toFixed(3)} µs direct, ${own.measured.toFixed(3)} µs through the adapter per round; ` +
      `a canned ${TOKENS}-delta stream ${ownStream.reference.toFixed(3)} ms read directly, ${ownStream.measured.toFixed(3)} ms through the adapter (${(((ownStream.measured - ownStream.reference) / TOKENS) * 1000).toFixed(2)} µs per delta)`,
  );
  const perToken = ((stream.measured - stream.reference) / TOKENS) * 1000;
  console.log(
    `paired medians: one JSON round ${round.reference.toFixed(3)} ms direct, ${round.measured.toFixed(3)} ms through the adapter (x${round.ratio.toFixed(3)}); ` +
      `control x${control.ratio.toFixed(3)}; a ${TOKENS}-delta stream ${stream.reference.toFixed(2)} ms direct, ${stream.measured.toFixed(2)} ms through the adapter (x${stream.ratio.toFixed(3)}, ${perToken.toFixed(2)} µs per delta)`,
  );
  await generateServer.close();
  await streamServer.close();
});

describe("one round (JSON) against a local server", () => {
  bench("doGenerate called directly", async () => {
    await generateModel.doGenerate(options);
  });
  bench("provider.round (the adapter)", async () => {
    await generateRound(request);
  });
});

describe(`a streamed reply of ${TOKENS} deltas`, () => {
  bench("doStream read directly", async () => {
    const { stream } = await streamModel.doStream(options);
    const reader = stream.getReader();
    for (;;) {
      const { done } = await reader.read();
      if (done) break;
    }
  });
  bench("provider.round (the adapter, with progress)", async () => {
    await streamRound(request);
  });
});

import { describe, expect, it } from "vitest";
import { createAiSdkProvider } from "./ai-sdk-provider";
import { defaultProviders } from "./plugin";
import { roundRequest } from "./test-support/round";

const openaiKey = process.env.OPENAI_API_KEY ?? "";
const anthropicKey = process.env.ANTHROPIC_API_KEY ?? "";

describe("live smoke tests against the real APIs", () => {
  it.skipIf(openaiKey === "")(
    openaiKey === ""
      ? "OpenAI answers one round (skipped: OPENAI_API_KEY is not set)"
      : "OpenAI answers one round",
    async () => {
      const entry = await defaultProviders({ OPENAI_API_KEY: openaiKey });
      const options = entry?.options.providers[0];
      if (options === undefined) throw new Error("no OpenAI provider");
      const reply = await createAiSdkProvider(options).round(
        roundRequest("openai:gpt-5-mini", [], { messages: [{ role: "user", content: "Say OK." }] }),
      );
      expect(reply.text.length).toBeGreaterThan(0);
      expect(reply.usage.inputTokens).toBeGreaterThan(0);
    },
  );

  it.skipIf(anthropicKey === "")(
    anthropicKey === ""
      ? "Anthropic answers one round (skipped: ANTHROPIC_API_KEY is not set)"
      : "Anthropic answers one round",
    async () => {
      const entry = await defaultProviders({ ANTHROPIC_API_KEY: anthropicKey });
      const options = entry?.options.providers[0];
      if (options === undefined) throw new Error("no Anthropic provider");
      const reply = await createAiSdkProvider(options).round(
        roundRequest("anthropic:claude-haiku-4-5", [], {
          messages: [{ role: "user", content: "Say OK." }],
        }),
      );
      expect(reply.text.length).toBeGreaterThan(0);
    },
  );
});

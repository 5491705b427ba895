import { describe, expect, it } from "vitest";
import * as otel from "./index";

describe("the package entry point", () => {
  it("exports exactly the public API", () => {
    expect(Object.keys(otel).sort()).toEqual(["attributes", "createTraceProjection"]);
  });

  it("names the GenAI attributes as the semantic conventions spell them", () => {
    const { attributes } = otel;
    expect([
      attributes.GEN_AI_OPERATION_NAME,
      attributes.GEN_AI_PROVIDER_NAME,
      attributes.GEN_AI_REQUEST_MODEL,
      attributes.GEN_AI_USAGE_INPUT_TOKENS,
      attributes.GEN_AI_USAGE_OUTPUT_TOKENS,
      attributes.GEN_AI_RESPONSE_FINISH_REASONS,
      attributes.GEN_AI_TOOL_NAME,
      attributes.GEN_AI_TOOL_CALL_ID,
      attributes.ERROR_TYPE,
    ]).toEqual([
      "gen_ai.operation.name",
      "gen_ai.provider.name",
      "gen_ai.request.model",
      "gen_ai.usage.input_tokens",
      "gen_ai.usage.output_tokens",
      "gen_ai.response.finish_reasons",
      "gen_ai.tool.name",
      "gen_ai.tool.call.id",
      "error.type",
    ]);
  });
});

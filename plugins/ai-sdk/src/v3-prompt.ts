import type {
  LanguageModelV3CallOptions,
  LanguageModelV3FunctionTool,
  LanguageModelV3Message,
  LanguageModelV3ToolResultPart,
} from "@ai-sdk/provider";
import type { ModelMessage, ModelRoundRequest, ModelTool } from "@runvil/sdk";

type JSONSchema7 = LanguageModelV3FunctionTool["inputSchema"];

function toolPart(message: Extract<ModelMessage, { role: "tool" }>): LanguageModelV3ToolResultPart {
  return {
    type: "tool-result",
    toolCallId: message.toolCallId,
    toolName: message.toolName,
    output: { type: "text", value: message.content },
  };
}

/**
 * Runvil's records as a V3 prompt: the role's system text first, then each record in order.
 * A user record is one text part; an assistant record its text (when not empty) then one
 * `tool-call` part per call (the V3 prompt takes the input as data); consecutive tool records
 * form one `tool` message of `tool-result` parts with text output, as the providers want the
 * results of one batch together.
 */
export function toV3Prompt(
  system: string | undefined,
  messages: readonly ModelMessage[],
): LanguageModelV3Message[] {
  const prompt: LanguageModelV3Message[] = [];
  if (system !== undefined) prompt.push({ role: "system", content: system });
  for (const message of messages) {
    switch (message.role) {
      case "system":
        prompt.push({ role: "system", content: message.content });
        break;
      case "user":
        prompt.push({ role: "user", content: [{ type: "text", text: message.content }] });
        break;
      case "assistant": {
        const content: Extract<LanguageModelV3Message, { role: "assistant" }>["content"] = [];
        if (message.content !== "") content.push({ type: "text", text: message.content });
        for (const call of message.toolCalls ?? []) {
          content.push({
            type: "tool-call",
            toolCallId: call.id,
            toolName: call.name,
            input: call.arguments,
          });
        }
        prompt.push({ role: "assistant", content });
        break;
      }
      case "tool": {
        const last = prompt[prompt.length - 1];
        if (last?.role === "tool") last.content.push(toolPart(message));
        else prompt.push({ role: "tool", content: [toolPart(message)] });
        break;
      }
    }
  }
  return prompt;
}

/** Runvil's advertised tools as V3 function tools. */
export function toV3Tools(tools: readonly ModelTool[]): LanguageModelV3FunctionTool[] {
  return tools.map((tool) => ({
    type: "function",
    name: tool.name,
    description: tool.description,
    inputSchema: tool.parameters as JSONSchema7,
  }));
}

/** The V3 call options of one round (one attempt), under `abortSignal`. */
export function toCallOptions(
  request: ModelRoundRequest,
  abortSignal: AbortSignal,
): LanguageModelV3CallOptions {
  const { settings } = request;
  return {
    prompt: toV3Prompt(request.system, request.messages),
    ...(request.tools.length === 0 ? {} : { tools: toV3Tools(request.tools) }),
    ...(settings.temperature === undefined ? {} : { temperature: settings.temperature }),
    ...(settings.maxOutputTokens === undefined
      ? {}
      : { maxOutputTokens: settings.maxOutputTokens }),
    ...(settings.stop === undefined || settings.stop.length === 0
      ? {}
      : { stopSequences: [...settings.stop] }),
    abortSignal,
  };
}

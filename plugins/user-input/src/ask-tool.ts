import { defineTool, INPUT_BROKER, type ToolContext, ToolFailure } from "@runvil/sdk";

/** The ask tool's id. */
export const ASK_TOOL_ID = "user-input/ask";

/** The ask tool's description, as the chapter gives it ("The ask tool"). */
export const ASK_TOOL_DESCRIPTION = "Wait for the operator's next message and return its text.";

/**
 * The failure of an ask in a run that has no input broker. The Pack declares its need for
 * `runvil/input-broker`, so a Host leaves the tool out of such a run; this guards a Host that
 * dispatches it anyway.
 */
export const NO_INPUT_BROKER_MESSAGE = "this run has no operator to ask";

/** The text a broker rejection that carries no usable message becomes. */
export const BROKER_FAILED_MESSAGE = "the operator's answer could not be read";

/**
 * `user-input/ask`: waits for the operator's next message through the run's input broker and
 * answers its text unchanged (trusted, plain). Arguments are ignored. A broker rejection becomes
 * a ToolFailure with the broker's own (model-safe) message, the rejection kept as its hidden cause.
 */
export const askTool = defineTool({
  id: ASK_TOOL_ID,
  description: ASK_TOOL_DESCRIPTION,
  parameters: { type: "object", properties: {} },
  output: "plain",
  trust: "trusted",
  survivesStop: true,
  run: (_args, ctx) => ask(ctx),
});

async function ask(ctx: ToolContext): Promise<string> {
  const broker = ctx.services.get(INPUT_BROKER);
  if (broker === undefined) throw new ToolFailure(NO_INPUT_BROKER_MESSAGE);
  try {
    return await broker.ask({ signal: ctx.signal });
  } catch (error) {
    throw new ToolFailure(failureMessage(error), { cause: error });
  }
}

/** The model-safe text of a broker's rejection: an Error's message, or a string rejection. */
function failureMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "string") return error;
  return BROKER_FAILED_MESSAGE;
}

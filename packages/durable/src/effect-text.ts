import { encodeValue } from "@runvil/journal";
import type { ModelRoundEffectRequest, StoreRequest, ToolCallRequest } from "@runvil/protocol";

/**
 * The text an effect's request is compared by on recovery: what the Engine asked, without its
 * origin's signals (the same fields the journal keeps, in the journal's codec).
 */
export function storeText(request: StoreRequest): string {
  return encodeValue({ store: request.operation });
}

/** A tool call's request text. */
export function toolText(request: ToolCallRequest): string {
  return encodeValue({
    tool: request.tool,
    name: request.name,
    arguments: request.arguments,
    caller: request.caller,
    callId: request.callId,
  });
}

/** A model round's request text. */
export function modelText(request: ModelRoundEffectRequest): string {
  return encodeValue({
    role: request.role,
    model: request.model,
    via: request.via,
    turn: request.turn,
    system: request.system,
    messages: request.messages,
    tools: request.tools,
    settings: request.settings,
  });
}

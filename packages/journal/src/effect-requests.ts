import type { ModelRoundEffectRequest, StoreRequest, ToolCallRequest } from "@runvil/protocol";
import { encodeValue } from "./codec";

/** A store request as the journal keeps it: the operation (the origin is kept beside it). */
export function storeRequestText(request: StoreRequest): string {
  return encodeValue(request.operation);
}

/** A tool call request as the journal keeps it: everything but its origin and its signals. */
export function toolRequestText(request: ToolCallRequest): string {
  return encodeValue({
    tool: request.tool,
    name: request.name,
    arguments: request.arguments,
    caller: request.caller,
    callId: request.callId,
  });
}

/** A model round request as the journal keeps it: everything but its origin and its signals. */
export function modelRequestText(request: ModelRoundEffectRequest): string {
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

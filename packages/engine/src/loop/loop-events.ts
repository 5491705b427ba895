import type { AssistantToolCall } from "@runvil/protocol";
import type { CallRoute } from "./advertised-tools";
import type { CheckedCall } from "./reply-check";

/**
 * The calls of a round's `assistant_tool_calls` event (tools chapter, "Events from the model's
 * tool calls"): each call's id, name and arguments in the model's order, and for a call to a
 * bound tool the tool id behind its wire name. `routes` holds each call's route, undefined for a
 * name the round did not advertise (it names no tool).
 */
export function assistantToolCallFields(
  calls: readonly CheckedCall[],
  routes: readonly (CallRoute | undefined)[],
): AssistantToolCall[] {
  return calls.map((call, index) => {
    const route = routes[index];
    return route?.kind === "catalog"
      ? { id: call.id, name: call.name, arguments: call.arguments, tool: route.tool.id }
      : { id: call.id, name: call.name, arguments: call.arguments };
  });
}

import type { HostCall } from "../lua";
import {
  ALLOW_TASKS_EMPTY_MESSAGE,
  ARGS_LIST_DETAIL,
  allowTasksEntryMessage,
  allowTasksTypeMessage,
  argsDetail,
  argsNotJsonMessage,
  argsTypeMessage,
  argumentTypeMessage,
  CALLS_READ_ONLY_MESSAGE,
  callShapeMessage,
  conversionMessage,
  frozenMessage,
  namespaceReadOnlyMessage,
  offerExtraMessage,
  offerShapeMessage,
  packsGetTypeMessage,
  packsOfferExtraMessage,
  packsOfferShapeMessage,
  paramNameMessage,
  paramSpecMessage,
  toolsGetTypeMessage,
} from "./tool-messages";

/**
 * A key as refusals name it: a string or a number as Lua writes it, a boolean as `true` or
 * `false`, any other value by its type name.
 */
export function keyText(call: HostCall, index: number): string {
  const type = call.type(index);
  if (type === "string" || type === "number") return call.text(index) ?? "";
  if (type === "boolean") return call.boolean(index) ? "true" : "false";
  return type;
}

/**
 * The message of a refusal the tools Lua raises through `H('fail', what, ...)`: the Lua side
 * classifies (it knows Tool objects and Lua's integer/float split), the texts live here.
 */
export function failureMessage(call: HostCall): string {
  const what = call.text(2);
  const text = (index: number): string => call.text(index) ?? "";
  switch (what) {
    case "tools_read_only":
      return namespaceReadOnlyMessage("tools", keyText(call, 3));
    case "packs_read_only":
      return namespaceReadOnlyMessage("packs", keyText(call, 3));
    case "tool_frozen":
      return frozenMessage("Tool", keyText(call, 3));
    case "pack_frozen":
      return frozenMessage("Pack", keyText(call, 3));
    case "calls_read_only":
      return CALLS_READ_ONLY_MESSAGE;
    case "tools_get":
      return toolsGetTypeMessage(text(3));
    case "packs_get":
      return packsGetTypeMessage(text(3));
    case "offer_extra":
      return offerExtraMessage(text(3));
    case "offer_shape":
      return offerShapeMessage(text(3));
    case "packs_offer_extra":
      return packsOfferExtraMessage(text(3));
    case "packs_offer_shape":
      return packsOfferShapeMessage(text(3));
    case "call_shape":
      return callShapeMessage(text(3));
    case "args_type":
      return argsTypeMessage(text(3));
    case "args_json":
      return argsNotJsonMessage(argsDetail(text(3)));
    case "args_list":
      return argsNotJsonMessage(ARGS_LIST_DETAIL);
    case "arg_type":
      return argumentTypeMessage(text(3), text(4), text(5));
    case "param_name":
      return paramNameMessage(text(3));
    case "param_spec":
      return paramSpecMessage(text(3));
    case "convert":
      return conversionMessage(text(3));
    case "allow_type":
      return allowTasksTypeMessage(text(3));
    case "allow_entry":
      return allowTasksEntryMessage(text(3));
    case "allow_empty":
      return ALLOW_TASKS_EMPTY_MESSAGE;
    default:
      throw new Error(`unknown tools refusal ${String(what)}`);
  }
}

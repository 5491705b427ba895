/**
 * The Lua side of the `json` Engine global: json.decode, json.decode_lines, json.encode,
 * json.encode_lines, json.array and json.null on a LuaVm, over the text layer in ../json.
 */

export { type EncodeLuaValueOptions, encodeLuaValueAt, pushDecodedJson } from "./host-json";
export { installJson } from "./install";
export {
  ensureJsonPrivateValues,
  ensureSealedTargets,
  JSON_LIST_MARKER_FIELD,
  JSON_NULL_FIELD,
  SEALED_TARGETS_FIELD,
} from "./private-values";

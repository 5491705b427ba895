/**
 * The Lua-independent text layer of the `json` Engine global: the decoder that streams JSON text
 * to a sink, the writer that produces json.encode's text, the limits and budget of
 * "Size and nesting limits", and the message catalogue.
 */

export { JsonEncodeBudget } from "./budget";
export {
  JsonDecodeError,
  type JsonSyntaxReason,
  type JsonTextPosition,
  jsonInputTooLargeError,
  jsonSyntaxError,
  jsonTextPosition,
} from "./decode-error";
export { decodeJson, decodeJsonLines } from "./decoder";
export { encodeJsonLinesValue, encodeJsonValue, type JsonEncodeValueOptions } from "./encode-value";
export {
  DEFAULT_LUA_MEMORY_BYTES,
  JSON_DECODE_LIMITS,
  JSON_MAX_DEPTH,
  JSON_MAX_INPUT_BYTES,
  JSON_MAX_PATH_KEYS,
  type JsonDecodeLimits,
  type JsonEncodeLimits,
  jsonEncodeLimits,
} from "./limits";
export {
  ARRAY_HAS_METATABLE_MESSAGE,
  arrayExpectsTableMessage,
  cannotReadMessage,
  cannotReadPlaceholder,
  containsItselfMessage,
  DEBUG_PLACEHOLDERS,
  encodeLinesExpectsListMessage,
  encodeLinesGotKeyMessage,
  expectsStringMessage,
  hasKeyOfTypeMessage,
  JsonEncodeError,
  keyNotValidUtf8Message,
  missingListItemMessage,
  mixesListItemsMessage,
  mustBeJsonDataMessage,
  nestedTooDeepMessage,
  notFiniteMessage,
  notValidUtf8Message,
  optionDebugMustBeBooleanMessage,
  optionsMustBeTableMessage,
  outsideInt64Message,
  tooLargeMessage,
  unknownOptionMessage,
} from "./messages";
export {
  formatJsonNumber,
  INT64_MAX,
  INT64_MIN,
  isInt64,
  nonFiniteText,
  numberKeyText,
} from "./number-text";
export { formatJsonPath, formatJsonPathStep, type JsonPathStep } from "./path";
export type { JsonSink } from "./sink";
export {
  compareBytes,
  compareUtf8Order,
  decodeUtf8Lossy,
  isValidUtf8,
  sortKeysBytewise,
  utf8Step,
  utf8ValidUpTo,
} from "./utf8";
export {
  decodeJsonLinesValue,
  decodeJsonValue,
  type JsonObject,
  type JsonValue,
  JsonValueBuilder,
} from "./value";
export { JsonWriter, type JsonWriterOptions } from "./writer";

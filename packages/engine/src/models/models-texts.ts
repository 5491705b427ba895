/**
 * The texts of the `models` global, model handles and model rounds (docs/design/models.md §6–8,
 * loop.md §3, §7, compactors.md). Texts marked *(spec)* there are the chapters'; the rest are
 * ours, recorded in those files.
 */

import { debugList, debugQuote } from "../tools/debug-quote";

/** The selection functions. */
export type SelectFunction = "models.use" | "models.default";

/** models.use / models.default with other than one argument. */
export function selectArityMessage(fn: SelectFunction): string {
  return `${fn} takes (label)`;
}

/** A label that is not a string. */
export function labelTypeMessage(type: string): string {
  return `label must be a string, got ${type}`;
}

/** A label the prompt does not declare under `models:`. */
export function unknownRoleMessage(
  fn: SelectFunction,
  label: string,
  declared: readonly string[],
): string {
  const hint = declared.length === 0 ? " (declare roles under models: in the frontmatter)" : "";
  return `${fn}: ${debugQuote(label)} is not a model role of this prompt; declared roles: ${debugList(declared)}${hint}`;
}

/** models.default outside the H1 pass. */
export const DEFAULT_OUTSIDE_H1_MESSAGE =
  "models.default is only available in the H1 pass; use models.use(label) in a section";

/** models.get with a non-string. */
export function getTypeMessage(type: string): string {
  return `models.get takes a role label, got ${type}`;
}

/** Assigning a field of the `models` table. */
export function modelsReadOnlyMessage(key: string): string {
  return `models is read-only; cannot set '${key}'`;
}

/** What getmetatable returns for the `models` table. */
export const MODELS_METATABLE_TEXT = "models is sealed";

/** models.infer with other than one argument *(spec)*. */
export const INFER_ARITY_MESSAGE = "models.infer takes (prompt)";

/** A handle's methods. */
export type HandleMethod = "infer" | "loop";

/** A handle method with the wrong number of arguments (`handle:infer takes (prompt)` *(spec)*). */
export function handleArityMessage(method: HandleMethod): string {
  return method === "infer" ? "handle:infer takes (prompt)" : "handle:loop takes (compactor?)";
}

/** A handle method called with a dot or on another value. */
export function handleColonMessage(method: HandleMethod): string {
  const call = method === "infer" ? "infer(prompt)" : "loop()";
  return `handle:${method} must be called on a model handle, as in models.get('writer'):${call}`;
}

/** What getmetatable returns for a model handle. */
export const HANDLE_METATABLE_TEXT = "model handles are frozen";

/** Assigning a field of a model handle. */
export function handleFrozenMessage(key: string): string {
  return `model handles are frozen: cannot assign field ${debugQuote(key)}`;
}

/** What tostring gives for a model handle. */
export function handleText(label: string): string {
  return `model: ${label}`;
}

/** A round asked of a section with no model: `{fn}: this section has no model; …`. */
export function noModelMessage(fn: "models.infer" | "models.loop" | "models.compact"): string {
  return `${fn}: this section has no model; call models.use(label) first, or models.default(label) in the H1 pass`;
}

/** A round on a role the run did not bind (only an Engine run without a Host's bindings). */
export function unboundRoleMessage(label: string): string {
  return `model role ${label} is not bound to a catalog model in this run`;
}

/** The precheck's refusal (kind context_exhausted, reason precheck). */
export function precheckMessage(
  estimate: number,
  reserve: number,
  window: number,
  model: string,
): string {
  return `the request needs about ${estimate} tokens (with ${reserve} reserved for the reply), over the ${window}-token context window of ${model}`;
}

/** Every round when the EffectPort has no modelRound. */
export const NO_MODEL_PORT_MESSAGE = "the run has no model port";

/** A round that failed with anything but a ModelFailure. */
export function genericRoundFailureMessage(model: string): string {
  return `${model}: the model round failed`;
}

/** The most bytes a reply's text may hold. */
export const MAX_REPLY_BYTES = 8_388_608;

/** The most tool calls one reply may make. */
export const MAX_REPLY_TOOL_CALLS = 256;

/** A reply whose text is over {@link MAX_REPLY_BYTES}. */
export function replyTooLargeMessage(bytes: number): string {
  return `the model's reply is ${bytes} bytes, over the ${MAX_REPLY_BYTES}-byte limit`;
}

/** A reply with more than {@link MAX_REPLY_TOOL_CALLS} calls. */
export function replyTooManyCallsMessage(calls: number): string {
  return `the model's reply has ${calls} tool calls, over the limit of ${MAX_REPLY_TOOL_CALLS}`;
}

/** models.infer's reply with no text *(spec)*. */
export const EMPTY_INFER_REPLY_MESSAGE = "empty model reply";

/** The cause an uncaught model-round failure carries (docs/design/outcomes.md). */
export function roundCauseText(
  turn: number,
  section: string,
  model: string,
  label: string,
): string {
  return `model round ${turn} of section ${section} on ${model} (role ${label})`;
}

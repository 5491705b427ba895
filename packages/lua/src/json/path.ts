/**
 * The value paths json.encode names failing values by ("When json.encode refuses a value").
 */

import { numberKeyText } from "./number-text";
import { decodeUtf8Lossy } from "./utf8";

/**
 * One step down from a table: a string key (JS string or Lua bytes), or any other key (an
 * integer list index, a float, a boolean).
 */
export type JsonPathStep = string | Uint8Array | number | bigint | boolean;

const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * The text of one step: `.name` for a string key (invalid UTF-8 bytes, or lone surrogates of a
 * JS string, shown as U+FFFD), and `[k]` for any other key, with `k` written as it would encode
 * (`[2]`, `[2.5]`, `[true]`).
 */
export function formatJsonPathStep(step: JsonPathStep): string {
  if (typeof step === "string") return `.${step.replace(LONE_SURROGATES, "\uFFFD")}`;
  if (step instanceof Uint8Array) return `.${decodeUtf8Lossy(step)}`;
  if (typeof step === "boolean") return `[${step}]`;
  return `[${numberKeyText(step)}]`;
}

/**
 * A path from the value passed: `value` followed by each step, as in `value.items[2]`.
 * `root` replaces `value` when a caller needs another start.
 */
export function formatJsonPath(steps: readonly JsonPathStep[], root = "value"): string {
  let text = root;
  for (const step of steps) text += formatJsonPathStep(step);
  return text;
}

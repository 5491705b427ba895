import { REASON_ALIAS } from "./reasons";
import { fail, type NameResult, ok } from "./result";

const MAX_ALIAS_LENGTH = 64;

function isAsciiLetter(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

function isAliasTailChar(code: number): boolean {
  return (
    isAsciiLetter(code) ||
    (code >= 0x30 && code <= 0x39) || // 0-9
    code === 0x5f || // _
    code === 0x2d // -
  );
}

/**
 * Checks the alias grammar `[A-Za-z][A-Za-z0-9_-]{0,63}`: 1 to 64 ASCII characters, a letter
 * first. Shared by local tool aliases, model role labels and arg names. Case is kept.
 */
export function checkAlias(text: string): NameResult<string> {
  const length = text.length;
  if (length === 0 || length > MAX_ALIAS_LENGTH) return fail(REASON_ALIAS);
  if (!isAsciiLetter(text.charCodeAt(0))) return fail(REASON_ALIAS);
  for (let i = 1; i < length; i++) {
    if (!isAliasTailChar(text.charCodeAt(i))) return fail(REASON_ALIAS);
  }
  return ok(text);
}

/**
 * The error tools.offer_local raises for a bad alias, quoting it as given:
 * `invalid alias "<alias>": expected [A-Za-z][A-Za-z0-9_-]{0,63}`.
 */
export function invalidAliasMessage(alias: string): string {
  return `invalid alias "${alias}": ${REASON_ALIAS}`;
}

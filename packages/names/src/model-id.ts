import { REASON_MODEL_ID } from "./reasons";
import { fail, type NameResult, ok } from "./result";

const MAX_MODEL_ID_LENGTH = 128;

function isAsciiLetterOrDigit(code: number): boolean {
  return (
    (code >= 0x41 && code <= 0x5a) || // A-Z
    (code >= 0x61 && code <= 0x7a) || // a-z
    (code >= 0x30 && code <= 0x39) // 0-9
  );
}

/** `.`, `_`, `:`, `/`, `@`, `+`, `-`: the punctuation a catalog model id may hold after its first character. */
function isModelIdPunctuation(code: number): boolean {
  return (
    code === 0x2e || // .
    code === 0x5f || // _
    code === 0x3a || // :
    code === 0x2f || // /
    code === 0x40 || // @
    code === 0x2b || // +
    code === 0x2d // -
  );
}

/**
 * Checks the catalog model id grammar `[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,127}` (docs/design/models.md):
 * 1 to 128 ASCII characters, a letter or digit first. It holds the ids providers use, such as
 * `claude-sonnet-4-6`, `gpt-4.1-mini`, `llama3.1:8b`, `meta-llama/Llama-3.3-70B-Instruct` or
 * `claude-3-5-sonnet@20240620`. Case is kept.
 */
export function checkModelId(text: string): NameResult<string> {
  const length = text.length;
  if (length === 0 || length > MAX_MODEL_ID_LENGTH) return fail(REASON_MODEL_ID);
  if (!isAsciiLetterOrDigit(text.charCodeAt(0))) return fail(REASON_MODEL_ID);
  for (let i = 1; i < length; i++) {
    const code = text.charCodeAt(i);
    if (!isAsciiLetterOrDigit(code) && !isModelIdPunctuation(code)) return fail(REASON_MODEL_ID);
  }
  return ok(text);
}

import { utf8Step } from "../json/utf8";
import { LOG_CONTROL_MESSAGE, LOG_NOT_UTF8_MESSAGE, LOG_TOO_LONG_MESSAGE } from "./messages";

/** Most Unicode characters one log message may hold. */
export const LOG_MAX_CHARACTERS = 256;

/**
 * The first message rule `bytes` breaks, in the chapter's order after the string type: UTF-8
 * validity, then at most 256 characters (code points, not bytes), then no control characters.
 * A control character is one of Unicode's Cc (U+0000–U+001F, U+007F–U+009F: newline, carriage
 * return and tab included) or U+2028 / U+2029. Returns undefined when the message is fine.
 */
export function logMessageRuleBroken(bytes: Uint8Array): string | undefined {
  const end = bytes.length;
  let characters = 0;
  let control = false;
  let i = 0;
  while (i < end) {
    const lead = bytes[i] as number;
    if (lead < 0x80) {
      if (lead < 0x20 || lead === 0x7f) control = true;
      i++;
    } else {
      const step = utf8Step(bytes, i, end);
      if (step < 0) return LOG_NOT_UTF8_MESSAGE;
      const second = bytes[i + 1] as number;
      if (lead === 0xc2 && second < 0xa0) control = true; // U+0080–U+009F
      if (lead === 0xe2 && second === 0x80 && (bytes[i + 2] === 0xa8 || bytes[i + 2] === 0xa9)) {
        control = true; // U+2028, U+2029
      }
      i += step;
    }
    characters++;
  }
  if (characters > LOG_MAX_CHARACTERS) return LOG_TOO_LONG_MESSAGE;
  if (control) return LOG_CONTROL_MESSAGE;
  return undefined;
}

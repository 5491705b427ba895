import type { StoreText } from "@runvil/sdk";
import { emptyAnchor, invalidUtf8Argument, type TextArgument } from "./failures";
import { type CheckedText, checkUtf8, textAsString } from "./utf8";

/** The checked text of a contents argument; throws an `invalid_utf8` StoreError naming it. */
export function textArgument(path: string, argument: TextArgument, value: StoreText): CheckedText {
  const check = checkUtf8(value);
  if (!check.ok) throw invalidUtf8Argument(path, argument, check.validUpTo);
  return check.text;
}

/** The checked `old` and `new` of an edit, as strings; an empty `old` throws a RangeError. */
export function editArguments(
  path: string,
  oldText: StoreText,
  newText: StoreText,
): { readonly anchor: string; readonly replacement: string } {
  if (oldText.length === 0) throw emptyAnchor();
  const anchor = textAsString(textArgument(path, "old", oldText));
  const replacement = textAsString(textArgument(path, "new", newText));
  return { anchor, replacement };
}

/** How many characters of a path a message shows before cutting it with `…`. */
export const DISPLAY_PATH_CHARACTERS = 200;

/** Whether the code unit is a control character (C0, DEL, C1) or a surrogate half. */
function needsEscape(unit: number): boolean {
  return unit < 0x20 || (unit >= 0x7f && unit <= 0x9f) || (unit >= 0xd800 && unit <= 0xdfff);
}

/**
 * A path as messages show it: control characters (and lone surrogate halves)
 * as `\uXXXX`, and anything past DISPLAY_PATH_CHARACTERS characters cut and
 * replaced with `…`. The error's `path` field keeps the path unchanged.
 */
export function displayPath(path: string): string {
  const characters = Array.from(path);
  const cut = characters.length > DISPLAY_PATH_CHARACTERS;
  let shown = "";
  for (const character of cut ? characters.slice(0, DISPLAY_PATH_CHARACTERS) : characters) {
    const unit = character.charCodeAt(0);
    if (character.length === 1 && needsEscape(unit)) {
      shown += `\\u${unit.toString(16).padStart(4, "0")}`;
    } else {
      shown += character;
    }
  }
  return cut ? `${shown}…` : shown;
}

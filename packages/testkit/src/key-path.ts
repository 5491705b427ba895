/** A path to a value inside a scenario file: map keys and list positions. */
export type KeyPath = readonly (string | number)[];

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Renders a key path the way the format documents keys: `cases[3].expect.error.kind`.
 * Keys that are not identifiers are quoted: `cases[0].store["note.md"]`.
 */
export function formatKeyPath(path: KeyPath): string {
  let text = "";
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) text += text === "" ? segment : `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text;
}

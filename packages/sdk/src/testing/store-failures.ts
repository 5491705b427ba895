import { StoreError, type StoreErrorReason } from "../store";

/** How many characters of a path a message shows before cutting it with `…`. */
const DISPLAY_PATH_CHARACTERS = 200;

/** A path as messages show it: control characters and lone surrogates as `\uXXXX`, cut at 200. */
function displayPath(path: string): string {
  const characters = Array.from(path);
  let shown = "";
  for (const character of characters.slice(0, DISPLAY_PATH_CHARACTERS)) {
    const unit = character.charCodeAt(0);
    const escaped =
      character.length === 1 &&
      (unit < 0x20 || (unit >= 0x7f && unit <= 0x9f) || (unit >= 0xd800 && unit <= 0xdfff));
    shown += escaped ? `\\u${unit.toString(16).padStart(4, "0")}` : character;
  }
  return characters.length > DISPLAY_PATH_CHARACTERS ? `${shown}…` : shown;
}

/** A StoreError worded as the Harness's stores word it: `{path}: {text}`. */
export function storeFailure(
  reason: StoreErrorReason,
  path: string,
  text: string,
  extra: { readonly count?: number; readonly validUpTo?: number } = {},
): StoreError {
  const message = path === "" ? text : `${displayPath(path)}: ${text}`;
  return new StoreError({ reason, path, message, ...extra });
}

export const notFound = (path: string): StoreError => storeFailure("not_found", path, "not found");

export const isDirectory = (path: string): StoreError =>
  storeFailure("not_a_file", path, "is a directory, not a file");

export const parentIsFile = (path: string, parent: string): StoreError =>
  storeFailure("not_a_file", path, `${displayPath(parent)} is a file, not a directory`);

export const isFileNotDirectory = (path: string): StoreError =>
  storeFailure("not_a_file", path, "is a file, not a directory");

export const invalidUtf8Argument = (path: string, argument: string, validUpTo: number) =>
  storeFailure(
    "invalid_utf8",
    path,
    `${argument} is not valid UTF-8 (valid up to byte ${validUpTo})`,
    { validUpTo },
  );

export const invalidUtf8File = (path: string, validUpTo: number): StoreError =>
  storeFailure(
    "invalid_utf8",
    path,
    `the file is not valid UTF-8 (valid up to byte ${validUpTo})`,
    {
      validUpTo,
    },
  );

export const anchorNotFound = (path: string): StoreError =>
  storeFailure("anchor_not_found", path, "the anchor text does not occur in the file", {
    count: 0,
  });

export const anchorNotUnique = (path: string, count: number): StoreError =>
  storeFailure("anchor_not_unique", path, `the anchor text occurs ${count} times in the file`, {
    count,
  });

import { StoreError, type StoreErrorReason } from "@runvil/sdk";
import { displayPath } from "./display";

/** The store operations, as `io_error` messages name them. */
export type StoreOperation =
  | "read"
  | "write"
  | "append"
  | "edit"
  | "delete"
  | "exists"
  | "list"
  | "glob";

/** The argument of a store call whose text is checked for UTF-8. */
export type TextArgument = "contents" | "text" | "old" | "new";

/** `{path}: {text}`, or `{text}` alone when the path is empty. */
export function storeMessage(path: string, text: string): string {
  return path === "" ? text : `${displayPath(path)}: ${text}`;
}

/** A StoreError with the message built from `path` and `text`. */
function failure(
  reason: StoreErrorReason,
  path: string,
  text: string,
  extra?: { count?: number; validUpTo?: number },
): StoreError {
  return new StoreError({ reason, path, message: storeMessage(path, text), ...extra });
}

/** `{path}: not found`. */
export function notFound(path: string): StoreError {
  return failure("not_found", path, "not found");
}

/** `{path}: invalid path: {detail}`. */
export function invalidPath(path: string, detail: string): StoreError {
  return failure("invalid_path", path, `invalid path: ${detail}`);
}

/** `{path}: invalid path: {prefix} is a symbolic link`. */
export function symbolicLink(path: string, prefix: string): StoreError {
  return invalidPath(path, `${displayPath(prefix)} is a symbolic link`);
}

/** `{pattern}: invalid pattern: {detail}`. */
export function invalidPattern(pattern: string, detail: string): StoreError {
  return failure("invalid_pattern", pattern, `invalid pattern: ${detail}`);
}

/** `{path}: {argument} is not valid UTF-8 (valid up to byte {n})`, with validUpTo. */
export function invalidUtf8Argument(
  path: string,
  argument: TextArgument,
  validUpTo: number,
): StoreError {
  return failure(
    "invalid_utf8",
    path,
    `${argument} is not valid UTF-8 (valid up to byte ${validUpTo})`,
    { validUpTo },
  );
}

/** `{path}: the file is not valid UTF-8 (valid up to byte {n})`, with validUpTo. */
export function invalidUtf8File(path: string, validUpTo: number): StoreError {
  return failure(
    "invalid_utf8",
    path,
    `the file is not valid UTF-8 (valid up to byte ${validUpTo})`,
    {
      validUpTo,
    },
  );
}

/** `{path}: the anchor text does not occur in the file`, with count 0. */
export function anchorNotFound(path: string): StoreError {
  return failure("anchor_not_found", path, "the anchor text does not occur in the file", {
    count: 0,
  });
}

/** `{path}: the anchor text occurs {n} times in the file`, with count n. */
export function anchorNotUnique(path: string, count: number): StoreError {
  return failure("anchor_not_unique", path, `the anchor text occurs ${count} times in the file`, {
    count,
  });
}

/** `{path}: the file would be {n} bytes, over the {limit}-byte file limit`. */
export function fileWouldBeTooLarge(path: string, bytes: number, limit: number): StoreError {
  return failure(
    "too_large",
    path,
    `the file would be ${bytes} bytes, over the ${limit}-byte file limit`,
  );
}

/** `{path}: the file is {n} bytes, over the {limit}-byte file limit` (a file found on disk). */
export function fileIsTooLarge(path: string, bytes: number, limit: number): StoreError {
  return failure(
    "too_large",
    path,
    `the file is ${bytes} bytes, over the ${limit}-byte file limit`,
  );
}

/** `{path}: the store would hold {n} bytes, over the {limit}-byte store limit`. */
export function storeWouldBeTooLarge(path: string, bytes: number, limit: number): StoreError {
  return failure(
    "too_large",
    path,
    `the store would hold ${bytes} bytes, over the ${limit}-byte store limit`,
  );
}

/** `{path}: is a directory, not a file`. */
export function isDirectory(path: string): StoreError {
  return failure("not_a_file", path, "is a directory, not a file");
}

/** `{path}: {prefix} is a file, not a directory` (a parent of the path is a file). */
export function parentIsFile(path: string, prefix: string): StoreError {
  return failure("not_a_file", path, `${displayPath(prefix)} is a file, not a directory`);
}

/** `{path}: is a file, not a directory` (list of a file). */
export function isFileNotDirectory(path: string): StoreError {
  return failure("not_a_file", path, "is a file, not a directory");
}

/** `{path}: is not a regular file` (a FIFO, socket or device on disk). */
export function notRegularFile(path: string): StoreError {
  return failure("not_a_file", path, "is not a regular file");
}

/** `{path}: {operation} failed ({code})`; the code is an errno name such as `ENOSPC`. */
export function ioError(path: string, operation: StoreOperation, code: string): StoreError {
  return failure("io_error", path, `${operation} failed (${code})`);
}

/** The RangeError RunStore.edit throws for an empty anchor: `old must not be empty`. */
export function emptyAnchor(): RangeError {
  return new RangeError("old must not be empty");
}

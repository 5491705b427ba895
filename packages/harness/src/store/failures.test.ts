import type { StoreError } from "@runvil/sdk";
import { describe, expect, it } from "vitest";
import {
  anchorNotFound,
  anchorNotUnique,
  emptyAnchor,
  fileIsTooLarge,
  fileWouldBeTooLarge,
  invalidPath,
  invalidPattern,
  invalidUtf8Argument,
  invalidUtf8File,
  ioError,
  isDirectory,
  isFileNotDirectory,
  notFound,
  notRegularFile,
  parentIsFile,
  storeMessage,
  storeWouldBeTooLarge,
  symbolicLink,
} from "./failures";

const fields = (error: StoreError): Record<string, unknown> => ({
  ...error,
  message: error.message,
});

describe("store failures", () => {
  it("builds every reason with its exact message and fields", () => {
    expect(fields(notFound("missing.txt"))).toEqual({
      name: "StoreError",
      reason: "not_found",
      path: "missing.txt",
      message: "missing.txt: not found",
    });
    const table: [StoreError, string, string, Record<string, number>][] = [
      [
        invalidPath("a\\b", "backslashes are not allowed"),
        "invalid_path",
        "a\\b: invalid path: backslashes are not allowed",
        {},
      ],
      [
        symbolicLink("out/x", "out"),
        "invalid_path",
        "out/x: invalid path: out is a symbolic link",
        {},
      ],
      [
        invalidPattern("[a", "unclosed character class"),
        "invalid_pattern",
        "[a: invalid pattern: unclosed character class",
        {},
      ],
      [
        invalidUtf8Argument("a", "contents", 3),
        "invalid_utf8",
        "a: contents is not valid UTF-8 (valid up to byte 3)",
        { validUpTo: 3 },
      ],
      [
        invalidUtf8Argument("a", "new", 0),
        "invalid_utf8",
        "a: new is not valid UTF-8 (valid up to byte 0)",
        { validUpTo: 0 },
      ],
      [
        invalidUtf8File("a", 9),
        "invalid_utf8",
        "a: the file is not valid UTF-8 (valid up to byte 9)",
        { validUpTo: 9 },
      ],
      [
        anchorNotFound("a"),
        "anchor_not_found",
        "a: the anchor text does not occur in the file",
        { count: 0 },
      ],
      [
        anchorNotUnique("a", 4),
        "anchor_not_unique",
        "a: the anchor text occurs 4 times in the file",
        { count: 4 },
      ],
      [
        fileWouldBeTooLarge("a", 17, 16),
        "too_large",
        "a: the file would be 17 bytes, over the 16-byte file limit",
        {},
      ],
      [
        fileIsTooLarge("a", 17, 16),
        "too_large",
        "a: the file is 17 bytes, over the 16-byte file limit",
        {},
      ],
      [
        storeWouldBeTooLarge("a", 300, 256),
        "too_large",
        "a: the store would hold 300 bytes, over the 256-byte store limit",
        {},
      ],
      [isDirectory("d"), "not_a_file", "d: is a directory, not a file", {}],
      [parentIsFile("f/x", "f"), "not_a_file", "f/x: f is a file, not a directory", {}],
      [isFileNotDirectory("f"), "not_a_file", "f: is a file, not a directory", {}],
      [notRegularFile("p"), "not_a_file", "p: is not a regular file", {}],
      [ioError("a", "write", "ENOSPC"), "io_error", "a: write failed (ENOSPC)", {}],
    ];
    for (const [error, reason, message, extra] of table) {
      expect(fields(error)).toEqual({
        name: "StoreError",
        reason,
        path: error.path,
        message,
        ...extra,
      });
    }
  });

  it("leaves the path prefix out for an empty path and escapes control characters", () => {
    expect(storeMessage("", "list failed (EIO)")).toBe("list failed (EIO)");
    expect(invalidPath("", "the path is empty").message).toBe("invalid path: the path is empty");
    expect(notFound("a\nb").message).toBe("a\\u000ab: not found");
    expect(notFound("a\nb").path).toBe("a\nb");
    expect(symbolicLink("l\u0001/x", "l\u0001").message).toBe(
      "l\\u0001/x: invalid path: l\\u0001 is a symbolic link",
    );
  });

  it("makes the empty-anchor RangeError", () => {
    const error = emptyAnchor();
    expect(error).toBeInstanceOf(RangeError);
    expect(error.message).toBe("old must not be empty");
  });
});

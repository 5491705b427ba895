import { describe, expect, it } from "vitest";
import { storeFailure } from "../testing/store-failure";
import {
  checkPatternText,
  checkStorePath,
  PATH_DETAILS,
  parseStorePath,
  segmentDetail,
} from "./store-path";

describe("checkStorePath", () => {
  it("accepts relative paths and splits them", () => {
    expect(checkStorePath("notes/today.md")).toEqual({
      ok: true,
      value: { path: "notes/today.md", segments: ["notes", "today.md"] },
    });
    expect(checkStorePath("park-0.1")).toEqual({
      ok: true,
      value: { path: "park-0.1", segments: ["park-0.1"] },
    });
  });

  it("keeps names as they are: no trimming, case folding or normalization", () => {
    for (const path of [
      " a ",
      "A.MD",
      "...",
      ".hidden",
      "a..b",
      "C:",
      "e\u0301",
      "é",
      "*?[",
      "x\uFEFF",
    ]) {
      expect(checkStorePath(path)).toEqual({ ok: true, value: { path, segments: [path] } });
    }
  });

  const refusals: [string, string][] = [
    ["", PATH_DETAILS.empty],
    ["/a", PATH_DETAILS.absolute],
    ["//a", PATH_DETAILS.absolute],
    ["a/", PATH_DETAILS.emptySegment],
    ["a//b", PATH_DETAILS.emptySegment],
    [".", PATH_DETAILS.dotSegment],
    ["..", PATH_DETAILS.dotSegment],
    ["a/./b", PATH_DETAILS.dotSegment],
    ["a/..", PATH_DETAILS.dotSegment],
    ["a\u0000", PATH_DETAILS.control],
    ["a\u001fb", PATH_DETAILS.control],
    ["a\u007f", PATH_DETAILS.control],
    ["a\u0080", PATH_DETAILS.control],
    ["a\u009f", PATH_DETAILS.control],
    ["a\\b", PATH_DETAILS.backslash],
    ["\uDC00", PATH_DETAILS.notUtf8],
    [".runvil-tmp", PATH_DETAILS.reserved],
    ["a/.runvil-tmp-x/b", PATH_DETAILS.reserved],
  ];

  for (const [path, detail] of refusals) {
    it(`refuses ${JSON.stringify(path)}: ${detail}`, () => {
      expect(checkStorePath(path)).toEqual({ ok: false, path, detail });
    });
  }

  it("allows characters next to the refused ranges", () => {
    for (const path of ["a\u0020b", "a~", "a\u00a0", "a/b"]) {
      expect(checkStorePath(path).ok).toBe(true);
    }
  });

  it("limits a path to 1024 UTF-8 bytes and a segment to 255", () => {
    const segment254 = "é".repeat(127);
    expect(checkStorePath("x".repeat(255)).ok).toBe(true);
    expect(checkStorePath("x".repeat(256))).toEqual({
      ok: false,
      path: "x".repeat(256),
      detail: PATH_DETAILS.segmentTooLong,
    });
    expect(checkStorePath(`${segment254}é`).ok).toBe(false);
    const path1024 = `${`${"x".repeat(255)}/`.repeat(3)}${"y".repeat(254)}/z`;
    expect(Buffer.byteLength(path1024)).toBe(1024);
    expect(checkStorePath(path1024).ok).toBe(true);
    expect(checkStorePath(`${path1024}x`)).toEqual({
      ok: false,
      path: `${path1024}x`,
      detail: PATH_DETAILS.tooLong,
    });
    expect(checkStorePath(`${"é".repeat(512)}x`)).toEqual({
      ok: false,
      path: `${"é".repeat(512)}x`,
      detail: PATH_DETAILS.tooLong,
    });
  });

  it("runs the checks in the documented order", () => {
    expect(checkStorePath(`/${"x".repeat(1100)}`)).toMatchObject({ detail: PATH_DETAILS.tooLong });
    expect(checkStorePath("/a\\b")).toMatchObject({ detail: PATH_DETAILS.absolute });
    expect(checkStorePath("a\\b//c")).toMatchObject({ detail: PATH_DETAILS.backslash });
    expect(checkStorePath("a//b\\c")).toMatchObject({ detail: PATH_DETAILS.emptySegment });
    expect(checkStorePath("../a\u0000")).toMatchObject({ detail: PATH_DETAILS.dotSegment });
    expect(checkStorePath("a\\b\u0000")).toMatchObject({ detail: PATH_DETAILS.backslash });
    expect(checkStorePath("a\u0000b\\")).toMatchObject({ detail: PATH_DETAILS.control });
    expect(checkStorePath(".runvil-tmp\\")).toMatchObject({ detail: PATH_DETAILS.backslash });
    expect(checkStorePath("/\uD800")).toMatchObject({ detail: PATH_DETAILS.notUtf8 });
  });

  it("decodes byte paths and reports invalid bytes with U+FFFD in the path", () => {
    expect(checkStorePath(new TextEncoder().encode("a/é"))).toEqual({
      ok: true,
      value: { path: "a/é", segments: ["a", "é"] },
    });
    expect(checkStorePath(Uint8Array.from([0x61, 0xc0, 0x80]))).toEqual({
      ok: false,
      path: "a\uFFFD\uFFFD",
      detail: PATH_DETAILS.notUtf8,
    });
  });
});

describe("parseStorePath", () => {
  it("throws invalid_path with the message", async () => {
    expect(await storeFailure(Promise.resolve().then(() => parseStorePath("a\\b")))).toEqual({
      reason: "invalid_path",
      path: "a\\b",
      message: "a\\b: invalid path: backslashes are not allowed",
    });
  });
});

describe("segmentDetail", () => {
  it("accepts a name a path could hold and refuses the rest", () => {
    expect(segmentDetail("ok.txt")).toBeUndefined();
    expect(segmentDetail("")).toBe(PATH_DETAILS.emptySegment);
    expect(segmentDetail("a/b")).toBeUndefined(); // callers split at "/" first
    expect(segmentDetail(".runvil-tmp-1-2-ab")).toBe(PATH_DETAILS.reserved);
  });
});

describe("checkPatternText", () => {
  it("allows backslashes and long segments, refuses the path-shape errors", () => {
    expect(checkPatternText("a\\*/b")).toEqual({
      ok: true,
      pattern: "a\\*/b",
      segments: ["a\\*", "b"],
    });
    expect(checkPatternText("x".repeat(300)).ok).toBe(true);
    expect(checkPatternText(".runvil-tmp*").ok).toBe(true);
    expect(checkPatternText("")).toMatchObject({ detail: "the pattern is empty" });
    expect(checkPatternText("/a")).toMatchObject({ detail: "absolute patterns are not allowed" });
    expect(checkPatternText("a//b")).toMatchObject({ detail: "empty segment" });
    expect(checkPatternText("a/../b")).toMatchObject({
      detail: "'.' and '..' segments are not allowed",
    });
    expect(checkPatternText("a\tb")).toMatchObject({
      detail: "control characters are not allowed",
    });
    expect(checkPatternText("\uD800")).toMatchObject({ detail: "not valid UTF-8" });
    expect(checkPatternText("x".repeat(4096)).ok).toBe(true);
    expect(checkPatternText("x".repeat(4097))).toMatchObject({ detail: "longer than 4096 bytes" });
  });
});

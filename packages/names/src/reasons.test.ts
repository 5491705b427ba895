import { describe, expect, it } from "vitest";
import {
  ALIAS_GRAMMAR,
  REASON_ALIAS,
  REASON_BAD_CHARACTER,
  REASON_CONTROL_CHARACTER,
  REASON_EMPTY_SEGMENT,
  REASON_FULLY_QUALIFIED_NAME_SEGMENTS,
  REASON_PACK_ID_SEGMENTS,
  REASON_TOOL_ID_SEGMENTS,
  REASON_USES_ENTRY_SEGMENTS,
  USES_ENTRY_NOT_STRING,
} from "./reasons";

describe("reason texts", () => {
  it("match the chapter's segment reasons exactly", () => {
    expect(REASON_EMPTY_SEGMENT).toBe("segments must not be empty");
    expect(REASON_CONTROL_CHARACTER).toBe("segments must not contain a control character");
    expect(REASON_BAD_CHARACTER).toBe(
      "segments may contain only lowercase ASCII letters, digits, '-', '_', '.'",
    );
  });

  it("match the chapter's segment-count reasons exactly", () => {
    expect(REASON_PACK_ID_SEGMENTS).toBe("a Pack id is one segment, such as `web`, with no '/'");
    expect(REASON_USES_ENTRY_SEGMENTS).toBe(
      "a uses entry is a Pack id, such as `web`, or vendor/name, such as `acme/web`",
    );
  });

  it("fix the reconstructed segment-count reasons", () => {
    expect(REASON_TOOL_ID_SEGMENTS).toBe("a tool id is two or more segments, such as `web/fetch`");
    expect(REASON_FULLY_QUALIFIED_NAME_SEGMENTS).toBe(
      "a fully qualified name is vendor/name, such as `runvil/web`",
    );
  });

  it("give the alias grammar and its reason", () => {
    expect(ALIAS_GRAMMAR).toBe("[A-Za-z][A-Za-z0-9_-]{0,63}");
    expect(REASON_ALIAS).toBe("expected [A-Za-z][A-Za-z0-9_-]{0,63}");
  });

  it("give the non-string uses entry text", () => {
    expect(USES_ENTRY_NOT_STRING).toBe(
      "expected a Pack id, such as `web`, or vendor/name, such as `acme/web`",
    );
  });

  it("are all distinct", () => {
    const all = [
      REASON_EMPTY_SEGMENT,
      REASON_CONTROL_CHARACTER,
      REASON_BAD_CHARACTER,
      REASON_PACK_ID_SEGMENTS,
      REASON_USES_ENTRY_SEGMENTS,
      REASON_TOOL_ID_SEGMENTS,
      REASON_FULLY_QUALIFIED_NAME_SEGMENTS,
      REASON_ALIAS,
      USES_ENTRY_NOT_STRING,
    ];
    expect(new Set(all).size).toBe(all.length);
  });
});

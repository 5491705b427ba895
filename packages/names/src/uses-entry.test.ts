import { describe, expect, it } from "vitest";
import {
  REASON_BAD_CHARACTER,
  REASON_CONTROL_CHARACTER,
  REASON_EMPTY_SEGMENT,
  REASON_USES_ENTRY_SEGMENTS,
} from "./reasons";
import { invalidUsesEntryMessage, parseUsesEntry } from "./uses-entry";

/** The full Frontmatter parse error message for a malformed entry. */
function frontmatterMessage(text: string): string | undefined {
  const result = parseUsesEntry(text);
  return result.ok
    ? undefined
    : `invalid frontmatter: ${invalidUsesEntryMessage(text, result.reason)}`;
}

describe("parseUsesEntry: valid entries", () => {
  it("reads a bare Pack id as the runvil Pack of that id", () => {
    expect(parseUsesEntry("web")).toEqual({
      ok: true,
      value: { text: "web", vendor: "runvil", packId: "web", fullName: "runvil/web" },
    });
    expect(parseUsesEntry("user-input")).toEqual({
      ok: true,
      value: {
        text: "user-input",
        vendor: "runvil",
        packId: "user-input",
        fullName: "runvil/user-input",
      },
    });
  });

  it("reads runvil/web as the same Pack as web", () => {
    const bare = parseUsesEntry("web");
    const qualified = parseUsesEntry("runvil/web");
    expect(qualified).toEqual({
      ok: true,
      value: { text: "runvil/web", vendor: "runvil", packId: "web", fullName: "runvil/web" },
    });
    expect(bare.ok && qualified.ok && bare.value.fullName === qualified.value.fullName).toBe(true);
  });

  it("reads a vendor/name entry with its Pack id as the last segment", () => {
    expect(parseUsesEntry("acme/poop")).toEqual({
      ok: true,
      value: { text: "acme/poop", vendor: "acme", packId: "poop", fullName: "acme/poop" },
    });
    expect(parseUsesEntry("acme/web")).toEqual({
      ok: true,
      value: { text: "acme/web", vendor: "acme", packId: "web", fullName: "acme/web" },
    });
  });

  it("reads a tool id such as web/fetch as the Pack fetch of a vendor named web", () => {
    expect(parseUsesEntry("web/fetch")).toEqual({
      ok: true,
      value: { text: "web/fetch", vendor: "web", packId: "fetch", fullName: "web/fetch" },
    });
  });

  it("accepts dot-only segments", () => {
    expect(parseUsesEntry("..")).toEqual({
      ok: true,
      value: { text: "..", vendor: "runvil", packId: "..", fullName: "runvil/.." },
    });
    expect(parseUsesEntry("./..")).toEqual({
      ok: true,
      value: { text: "./..", vendor: ".", packId: "..", fullName: "./.." },
    });
  });
});

describe("parseUsesEntry: errors and their messages", () => {
  it("refuses three segments with the uses-entry reason", () => {
    expect(parseUsesEntry("acme/web/fetch")).toEqual({
      ok: false,
      reason: REASON_USES_ENTRY_SEGMENTS,
    });
    expect(frontmatterMessage("acme/web/fetch")).toBe(
      "invalid frontmatter: invalid uses entry `acme/web/fetch`: a uses entry is a Pack id, such as `web`, or vendor/name, such as `acme/web`",
    );
  });

  it("gives an uppercase entry the character-set reason", () => {
    expect(frontmatterMessage("Web")).toBe(
      "invalid frontmatter: invalid uses entry `Web`: segments may contain only lowercase ASCII letters, digits, '-', '_', '.'",
    );
  });

  it("gives a version-pinned entry the character-set reason", () => {
    expect(frontmatterMessage("web@1.0")).toBe(
      "invalid frontmatter: invalid uses entry `web@1.0`: segments may contain only lowercase ASCII letters, digits, '-', '_', '.'",
    );
  });

  it("gives Web/ the character-set reason", () => {
    expect(frontmatterMessage("Web/")).toBe(
      "invalid frontmatter: invalid uses entry `Web/`: segments may contain only lowercase ASCII letters, digits, '-', '_', '.'",
    );
  });

  it("gives a trailing slash the empty-segment reason", () => {
    expect(frontmatterMessage("web/")).toBe(
      "invalid frontmatter: invalid uses entry `web/`: segments must not be empty",
    );
  });

  it("gives a doubled slash the empty-segment reason", () => {
    expect(frontmatterMessage("acme//web")).toBe(
      "invalid frontmatter: invalid uses entry `acme//web`: segments must not be empty",
    );
  });

  it("gives a leading slash and the empty entry the empty-segment reason", () => {
    expect(parseUsesEntry("/web")).toEqual({ ok: false, reason: REASON_EMPTY_SEGMENT });
    expect(parseUsesEntry("")).toEqual({ ok: false, reason: REASON_EMPTY_SEGMENT });
  });

  it("checks segments before the count", () => {
    expect(parseUsesEntry("a/b/c/")).toEqual({ ok: false, reason: REASON_EMPTY_SEGMENT });
    expect(parseUsesEntry("a/b/C")).toEqual({ ok: false, reason: REASON_BAD_CHARACTER });
    expect(parseUsesEntry("a/b/c\t")).toEqual({ ok: false, reason: REASON_CONTROL_CHARACTER });
  });

  it("does not trim whitespace", () => {
    expect(parseUsesEntry(" web")).toEqual({ ok: false, reason: REASON_BAD_CHARACTER });
    expect(parseUsesEntry("web\n")).toEqual({ ok: false, reason: REASON_CONTROL_CHARACTER });
  });

  it("quotes the entry exactly as written", () => {
    expect(invalidUsesEntryMessage("x y", "r")).toBe("invalid uses entry `x y`: r");
  });
});

import { describe, expect, it } from "vitest";
import { checkPackId, parseFullyQualifiedName, RUNVIL_VENDOR } from "./pack-id";
import {
  REASON_BAD_CHARACTER,
  REASON_CONTROL_CHARACTER,
  REASON_EMPTY_SEGMENT,
  REASON_FULLY_QUALIFIED_NAME_SEGMENTS,
  REASON_PACK_ID_SEGMENTS,
} from "./reasons";

/** The message packs.offer raises, built from a reason (tools chapter). */
function packsOfferMessage(text: string, reason: string): string {
  return `packs.offer takes a Pack id, a Pack object, or a list of them, got "${text}": invalid Pack id: ${reason}`;
}

function reasonOf(text: string): string | undefined {
  const result = checkPackId(text);
  return result.ok ? undefined : result.reason;
}

describe("checkPackId", () => {
  it("accepts one-segment Pack ids", () => {
    for (const id of ["web", "user-input", "subagents", "poop", "1", "..", ".", "_", "-x"]) {
      expect(checkPackId(id)).toEqual({ ok: true, value: id });
    }
  });

  it("refuses a fully qualified name or a tool id as not one segment", () => {
    expect(reasonOf("runvil/web")).toBe(REASON_PACK_ID_SEGMENTS);
    expect(reasonOf("web/fetch")).toBe(REASON_PACK_ID_SEGMENTS);
    expect(reasonOf("a/b/c")).toBe(REASON_PACK_ID_SEGMENTS);
  });

  it("builds the packs.offer message for runvil/web", () => {
    expect(packsOfferMessage("runvil/web", reasonOf("runvil/web") ?? "")).toBe(
      "packs.offer takes a Pack id, a Pack object, or a list of them, got \"runvil/web\": invalid Pack id: a Pack id is one segment, such as `web`, with no '/'",
    );
  });

  it("checks segments before the count: web/ gets the empty-segment reason", () => {
    expect(reasonOf("web/")).toBe(REASON_EMPTY_SEGMENT);
    expect(packsOfferMessage("web/", reasonOf("web/") ?? "")).toBe(
      'packs.offer takes a Pack id, a Pack object, or a list of them, got "web/": invalid Pack id: segments must not be empty',
    );
  });

  it("gives Web/ the character-set reason", () => {
    expect(packsOfferMessage("Web/", reasonOf("Web/") ?? "")).toBe(
      "packs.offer takes a Pack id, a Pack object, or a list of them, got \"Web/\": invalid Pack id: segments may contain only lowercase ASCII letters, digits, '-', '_', '.'",
    );
  });

  it("gives a tab the control-character reason", () => {
    expect(reasonOf("we\tb")).toBe(REASON_CONTROL_CHARACTER);
  });

  it("gives a non-ASCII letter the character-set reason", () => {
    expect(reasonOf("café")).toBe(REASON_BAD_CHARACTER);
  });

  it("gives a count failure only to names whose segments are all valid", () => {
    expect(reasonOf("web/X")).toBe(REASON_BAD_CHARACTER);
    expect(reasonOf("web/fetch/")).toBe(REASON_EMPTY_SEGMENT);
  });

  it("rejects the empty string with the empty-segment reason", () => {
    expect(reasonOf("")).toBe(REASON_EMPTY_SEGMENT);
  });
});

describe("parseFullyQualifiedName", () => {
  it("reads the vendor and the Pack id, the second segment", () => {
    expect(parseFullyQualifiedName("runvil/web")).toEqual({
      ok: true,
      value: { vendor: "runvil", packId: "web", fullName: "runvil/web" },
    });
    expect(parseFullyQualifiedName("runvil/user-input")).toEqual({
      ok: true,
      value: { vendor: "runvil", packId: "user-input", fullName: "runvil/user-input" },
    });
    expect(parseFullyQualifiedName("acme/poop")).toEqual({
      ok: true,
      value: { vendor: "acme", packId: "poop", fullName: "acme/poop" },
    });
  });

  it("needs exactly two segments", () => {
    expect(parseFullyQualifiedName("web")).toEqual({
      ok: false,
      reason: REASON_FULLY_QUALIFIED_NAME_SEGMENTS,
    });
    expect(parseFullyQualifiedName("acme/web/fetch")).toEqual({
      ok: false,
      reason: REASON_FULLY_QUALIFIED_NAME_SEGMENTS,
    });
  });

  it("checks segments before the count", () => {
    expect(parseFullyQualifiedName("acme/")).toEqual({ ok: false, reason: REASON_EMPTY_SEGMENT });
    expect(parseFullyQualifiedName("Acme/web/x")).toEqual({
      ok: false,
      reason: REASON_BAD_CHARACTER,
    });
  });

  it("names the official vendor runvil", () => {
    expect(RUNVIL_VENDOR).toBe("runvil");
  });
});

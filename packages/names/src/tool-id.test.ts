import { describe, expect, it } from "vitest";
import {
  REASON_BAD_CHARACTER,
  REASON_CONTROL_CHARACTER,
  REASON_EMPTY_SEGMENT,
  REASON_TOOL_ID_SEGMENTS,
} from "./reasons";
import { parseToolId } from "./tool-id";

function reasonOf(text: string): string | undefined {
  const result = parseToolId(text);
  return result.ok ? undefined : result.reason;
}

describe("parseToolId", () => {
  it("reads <pack>/<tool> catalog ids", () => {
    expect(parseToolId("web/fetch")).toEqual({
      ok: true,
      value: { id: "web/fetch", packId: "web", segments: ["web", "fetch"], toolName: "fetch" },
    });
    expect(parseToolId("user-input/ask")).toEqual({
      ok: true,
      value: {
        id: "user-input/ask",
        packId: "user-input",
        segments: ["user-input", "ask"],
        toolName: "ask",
      },
    });
    expect(parseToolId("web/search")).toMatchObject({
      ok: true,
      value: { packId: "web", toolName: "search" },
    });
  });

  it("reads {pack}/{group}/{tool}: only the first names the Pack, only the last the tool", () => {
    expect(parseToolId("pack/group/tool")).toEqual({
      ok: true,
      value: {
        id: "pack/group/tool",
        packId: "pack",
        segments: ["pack", "group", "tool"],
        toolName: "tool",
      },
    });
  });

  it("allows dots after the Pack id and digits in any segment", () => {
    expect(parseToolId("web/search.v2")).toMatchObject({
      ok: true,
      value: { packId: "web", toolName: "search.v2" },
    });
    expect(parseToolId("p2/t3")).toMatchObject({ ok: true, value: { packId: "p2" } });
  });

  it("takes its Pack id from a declared entry's last segment: acme/poop tools start poop/", () => {
    expect(parseToolId("poop/flush")).toMatchObject({ ok: true, value: { packId: "poop" } });
  });

  it("matches ownership on the whole first segment, never a prefix or a later segment", () => {
    expect(parseToolId("webx/fetch")).toMatchObject({ ok: true, value: { packId: "webx" } });
    expect(parseToolId("acme/web/fetch")).toMatchObject({ ok: true, value: { packId: "acme" } });
  });

  it("keeps the id as written, and the segments join back to it", () => {
    const result = parseToolId("a/b.c/-d");
    expect(result.ok && result.value.segments.join("/")).toBe("a/b.c/-d");
  });

  it("refuses a bare tool name such as fetch", () => {
    expect(reasonOf("fetch")).toBe(REASON_TOOL_ID_SEGMENTS);
    expect(reasonOf("web")).toBe(REASON_TOOL_ID_SEGMENTS);
  });

  it("gives an uppercase letter, an @, or a non-ASCII character the character-set reason", () => {
    expect(reasonOf("Web/fetch")).toBe(REASON_BAD_CHARACTER);
    expect(reasonOf("web/Fetch")).toBe(REASON_BAD_CHARACTER);
    expect(reasonOf("web/fetch@1")).toBe(REASON_BAD_CHARACTER);
    expect(reasonOf("web/fétch")).toBe(REASON_BAD_CHARACTER);
  });

  it("refuses a wire name: web_fetch is one segment", () => {
    expect(reasonOf("web_fetch")).toBe(REASON_TOOL_ID_SEGMENTS);
  });

  it("checks segments before the count", () => {
    expect(reasonOf("")).toBe(REASON_EMPTY_SEGMENT);
    expect(reasonOf("fetch/")).toBe(REASON_EMPTY_SEGMENT);
    expect(reasonOf("/fetch")).toBe(REASON_EMPTY_SEGMENT);
    expect(reasonOf("Fetch")).toBe(REASON_BAD_CHARACTER);
    expect(reasonOf("fe\ttch")).toBe(REASON_CONTROL_CHARACTER);
  });

  it("has no length limit", () => {
    const long = `web/${"x".repeat(10_000)}`;
    expect(parseToolId(long)).toMatchObject({ ok: true, value: { id: long } });
  });
});

import { describe, expect, it } from "vitest";
import {
  argsDetail,
  frozenMessage,
  missingCountMessage,
  packsOfferInvalidIdMessage,
  packsOfferUnknownMessage,
  structuredInvalidJsonMessage,
  toolListFixedMessage,
  unboundToolMessage,
} from "./tool-messages";

describe("tool messages", () => {
  it("words the fixed-list refusal with the function's name", () => {
    expect(toolListFixedMessage("tools.offer_local")).toBe(
      "tools.offer_local: the section's tool list is fixed at its first models.loop round; make every offer before the first loop, or offer in another section",
    );
  });

  it("ends a missing count in three ways", () => {
    expect(missingCountMessage("web/search", ["web/fetch"], "catalog")).toBe(
      'tools.calls: "web/search" has no seeded count; seeded names: ["web/fetch"] (a catalog tool that was neither offered in this section nor called with tools.call)',
    );
    expect(missingCountMessage("web_fetch", ["web/fetch"], "typo")).toBe(
      'tools.calls: "web_fetch" has no seeded count; seeded names: ["web/fetch"] - check for typos or offer it with tools.offer',
    );
    expect(missingCountMessage("x", [], "none")).toBe(
      'tools.calls: "x" has no seeded count; seeded names: []',
    );
  });

  it("quotes names with escapes", () => {
    expect(unboundToolMessage('a"b', [])).toBe(
      'tool "a\\"b" is not a tool in this run; catalog tools: []',
    );
    expect(frozenMessage("Tool", "description")).toBe(
      'Tool objects are frozen: cannot assign field "description"',
    );
    expect(packsOfferUnknownMessage("nope")).toBe(
      'packs.offer: no Pack named "nope" in this run; declare it under uses: to require it, or offer it only when packs.get("nope") returns it',
    );
    expect(
      packsOfferInvalidIdMessage(
        "Web",
        "segments may contain only lowercase ASCII letters, digits, '-', '_', '.'",
      ),
    ).toBe(
      "packs.offer takes a Pack id, a Pack object, or a list of them, got \"Web\": invalid Pack id: segments may contain only lowercase ASCII letters, digits, '-', '_', '.'",
    );
    expect(structuredInvalidJsonMessage("stats_read", "expected value at line 1 column 1")).toBe(
      'structured tool "stats_read" returned invalid JSON: expected value at line 1 column 1',
    );
  });

  it("renames json.encode's root to args", () => {
    expect(argsDetail("json.encode: value.url must be JSON data, got function")).toBe(
      "args.url must be JSON data, got function",
    );
    expect(argsDetail("json.encode: value contains itself")).toBe("args contains itself");
    expect(argsDetail("json.encode: values are odd")).toBe("values are odd");
  });
});

import { describe, expect, it } from "vitest";
import {
  missingPackLine,
  missingServiceLine,
  missingServiceReason,
  NOTICE_HEADER,
  notInstalledLine,
  otherVendorLine,
  requirementsNotice,
  unavailableLine,
} from "./requirements-notice";

describe("requirements notice lines", () => {
  it("reads as the chapter writes them", () => {
    expect(missingPackLine("web")).toBe("- missing required Pack: web");
    expect(otherVendorLine("poop", ["acme/poop"])).toBe(
      "- poop is unavailable: poop means runvil/poop, which is not installed; write acme/poop to use that Pack",
    );
    expect(notInstalledLine("poop", "acme/poop")).toBe(
      "- poop is unavailable: acme/poop is not installed",
    );
    expect(notInstalledLine("fetch", "web/fetch")).toBe(
      "- fetch is unavailable: web/fetch is not installed",
    );
    expect(unavailableLine("web", "the web Pack failed to start")).toBe(
      "- web is unavailable: the web Pack failed to start",
    );
    expect(missingServiceLine("user-input", "runvil/input-broker")).toBe(
      "- user-input needs runvil/input-broker, and the environment provides none",
    );
    expect(missingServiceReason("web", "runvil/search-provider")).toBe(
      "web needs runvil/search-provider, and this host provides none",
    );
  });

  it("names every other vendor when there are several", () => {
    expect(otherVendorLine("poop", ["acme/poop", "beta/poop"])).toBe(
      "- poop is unavailable: poop means runvil/poop, which is not installed; write acme/poop or beta/poop to use one of those Packs",
    );
    expect(otherVendorLine("poop", ["a/poop", "b/poop", "c/poop"])).toContain(
      "write a/poop, b/poop or c/poop to use one of those Packs",
    );
  });

  it("opens with the header and puts one problem on each line", () => {
    expect(NOTICE_HEADER).toBe("the environment cannot satisfy this prompt:");
    expect(requirementsNotice([missingPackLine("web"), missingPackLine("kit")])).toBe(
      "the environment cannot satisfy this prompt:\n- missing required Pack: web\n- missing required Pack: kit",
    );
  });
});

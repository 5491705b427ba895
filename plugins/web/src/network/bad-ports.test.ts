import { describe, expect, it } from "vitest";
import { isBadPort } from "./bad-ports";

describe("isBadPort", () => {
  it("blocks the Fetch standard's ports and nothing else", () => {
    expect(isBadPort(new URL("http://a.example:25/"))).toBe(true);
    expect(isBadPort(new URL("http://a.example:6667/"))).toBe(true);
    expect(isBadPort(new URL("http://a.example:8080/"))).toBe(false);
    expect(isBadPort(new URL("http://a.example/"))).toBe(false);
    expect(isBadPort(new URL("https://a.example:443/"))).toBe(false);
  });
});

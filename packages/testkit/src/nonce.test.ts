import { describe, expect, it } from "vitest";
import { NONCE_PLACEHOLDER, withNonce, withNonceDeep } from "./nonce";
import { TEST_NONCE } from "./test-support";

describe("withNonce", () => {
  it("replaces every NONCE", () => {
    expect(NONCE_PLACEHOLDER).toBe("NONCE");
    expect(withNonce("<u_NONCE>x</u_NONCE>", TEST_NONCE)).toBe(
      `<u_${TEST_NONCE}>x</u_${TEST_NONCE}>`,
    );
  });

  it("is case-sensitive and leaves text alone without a nonce", () => {
    expect(withNonce("nonce Nonce", TEST_NONCE)).toBe("nonce Nonce");
    expect(withNonce("NONCE", undefined)).toBe("NONCE");
  });
});

describe("withNonceDeep", () => {
  it("replaces inside strings of nested data, never in keys", () => {
    expect(withNonceDeep({ NONCE: ["NONCE", 1, null, { k: "a NONCE" }] }, "n")).toEqual({
      NONCE: ["n", 1, null, { k: "a n" }],
    });
  });
});

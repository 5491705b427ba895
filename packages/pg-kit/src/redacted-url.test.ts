import { describe, expect, it } from "vitest";
import { redactedUrl } from "./redacted-url";

describe("redactedUrl", () => {
  it("hides the password and keeps the rest", () => {
    expect(redactedUrl("postgres://me:secret@127.0.0.1:5432/runs?sslmode=require")).toBe(
      "postgres://me:***@127.0.0.1:5432/runs?sslmode=require",
    );
    expect(redactedUrl("postgres://me@127.0.0.1/runs")).toBe("postgres://me@127.0.0.1/runs");
  });

  it("never echoes text that does not parse as a URL (it could hold a password)", () => {
    expect(redactedUrl("postgres://me:secret@[127.0.0.1/runs")).toBe("postgres://(an invalid URL)");
    expect(redactedUrl("secret")).toBe("postgres://(an invalid URL)");
  });
});

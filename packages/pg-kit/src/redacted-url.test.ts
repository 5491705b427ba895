import { describe, expect, it } from "vitest";
import { redactedUrl, redactedUserinfo } from "./redacted-url";

describe("redactedUrl", () => {
  it("hides the password and keeps the rest", () => {
    expect(redactedUrl("postgres://me:secret@127.0.0.1:5432/runs?sslmode=require")).toBe(
      "postgres://me:***@127.0.0.1:5432/runs?sslmode=require",
    );
    expect(redactedUrl("postgres://me@127.0.0.1/runs")).toBe("postgres://me@127.0.0.1/runs");
    expect(redactedUrl("postgresql://me:secret@db/runs")).toBe("postgresql://me:***@db/runs");
  });

  it("hides a password given as a query parameter", () => {
    expect(redactedUrl("postgres://me@db/runs?password=secret&sslmode=require")).toBe(
      "postgres://me@db/runs?password=***&sslmode=require",
    );
  });

  it("never echoes the part before '@' of text that is not a postgres:// URL", () => {
    // `runvil:` parses as a URL scheme, `secret@host/db` as its path.
    expect(redactedUrl("runvil:secret@host/db")).toBe("(not a postgres:// URL: ***@host/db)");
    expect(redactedUrl("mysql://me:secret@host/db")).toBe("(not a postgres:// URL: ***@host/db)");
    expect(redactedUrl("me:p@ss@host/db")).toBe("(not a postgres:// URL: ***@host/db)");
    expect(redactedUrl("postgres://me:secret@[127.0.0.1/runs")).toBe(
      "(an invalid postgres:// URL: ***@[127.0.0.1/runs)",
    );
  });

  it("echoes no text that is not a URL and has no '@' (it could be a password)", () => {
    expect(redactedUrl("secret")).toBe("(not a postgres:// URL)");
    expect(redactedUrl("postgres://[oops")).toBe("(an invalid postgres:// URL)");
  });
});

describe("redactedUserinfo", () => {
  it("hides everything before the last '@' and a password query parameter", () => {
    expect(redactedUserinfo("runvil:secret@host/db")).toBe("***@host/db");
    expect(redactedUserinfo("u:p@ss@host/db?password=x&a=1")).toBe("***@host/db?password=***&a=1");
    expect(redactedUserinfo("postgres://h/db?sslpassword=x")).toBe(
      "postgres://h/db?sslpassword=***",
    );
  });

  it("keeps text with neither", () => {
    expect(redactedUserinfo("file.db")).toBe("file.db");
    expect(redactedUserinfo("mysql://x")).toBe("mysql://x");
  });
});

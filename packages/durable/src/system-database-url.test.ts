import { describe, expect, it } from "vitest";
import { systemDatabaseUrl } from "./system-database-url";

describe("systemDatabaseUrl", () => {
  it("adds the idle transaction timeout as a startup option", () => {
    const url = systemDatabaseUrl("postgres://u:p%40ss@127.0.0.1:5432/runs");
    const parsed = new URL(url);
    expect(parsed.searchParams.get("options")).toBe("-c idle_in_transaction_session_timeout=60000");
    expect(`${parsed.username}:${parsed.password}@${parsed.host}${parsed.pathname}`).toBe(
      "u:p%40ss@127.0.0.1:5432/runs",
    );
  });

  it("keeps the URL's other parameters and options", () => {
    const url = new URL(
      systemDatabaseUrl("postgresql://h/db?sslmode=disable&options=-c%20search_path%3Dx"),
    );
    expect(url.searchParams.get("sslmode")).toBe("disable");
    expect(url.searchParams.get("options")).toBe(
      "-c search_path=x -c idle_in_transaction_session_timeout=60000",
    );
  });

  it("leaves a URL that sets the timeout itself, and one that does not parse", () => {
    const own = "postgres://h/db?options=-c%20idle_in_transaction_session_timeout%3D5000";
    expect(systemDatabaseUrl(own)).toBe(own);
    expect(systemDatabaseUrl("postgres://[bad")).toBe("postgres://[bad");
  });
});

import { describe, expect, it } from "vitest";
import { errorCode, errorDetail, isConnectionLoss, isUnreachable } from "./pg-errors";

const coded = (code: string, message = `failed with ${code}`): Error =>
  Object.assign(new Error(message), { code });

describe("pg error codes", () => {
  it("reads the code and message of an error, the first one of an AggregateError", () => {
    expect(errorCode(coded("57P01"))).toBe("57P01");
    expect(
      errorCode(new AggregateError([coded("ECONNREFUSED", "one"), coded("EHOSTUNREACH")])),
    ).toBe("ECONNREFUSED");
    expect(errorDetail(new AggregateError([coded("ECONNREFUSED", "one")], "all"))).toBe("one");
    expect(errorCode(new Error("no code"))).toBe("");
    expect(errorCode({ code: 42 })).toBe("");
    expect(errorDetail("text")).toBe("text");
  });

  it("tells a server that cannot be reached from a refused statement", () => {
    for (const code of ["ECONNREFUSED", "ENOTFOUND", "ETIMEDOUT"]) {
      expect(isUnreachable(coded(code))).toBe(true);
    }
    expect(isUnreachable(new AggregateError([new Error("refused")]))).toBe(true);
    expect(isUnreachable(coded("28P01"))).toBe(false); // invalid_password
    expect(isUnreachable(coded("42P01"))).toBe(false); // undefined_table
  });

  it("tells a lost connection (try again) from a refusal of the statement", () => {
    for (const code of ["ECONNRESET", "57P01", "57P03", "08006", "EAI_AGAIN"]) {
      expect(isConnectionLoss(coded(code))).toBe(true);
    }
    expect(isConnectionLoss(new Error("Connection terminated unexpectedly"))).toBe(true);
    // pg-pool: no connection within connectionTimeoutMillis
    expect(isConnectionLoss(new Error("timeout exceeded when trying to connect"))).toBe(true);
    expect(isConnectionLoss(coded("23505"))).toBe(false); // unique_violation
    expect(isConnectionLoss(coded("53100"))).toBe(false); // disk_full
  });
});

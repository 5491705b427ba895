import { describe, expect, it } from "vitest";
import { schemaNameProblem } from "./schema-name";

describe("schemaNameProblem", () => {
  it("accepts plain names up to 63 characters", () => {
    for (const name of ["public", "runvil", "_x", "a1_b2", `a${"b".repeat(62)}`]) {
      expect(schemaNameProblem(name)).toBeUndefined();
    }
  });

  it("names what is refused: upper case, a leading digit, quotes, too long, empty", () => {
    for (const name of ["Runvil", "1x", 'x"; DROP', "a-b", `a${"b".repeat(63)}`, ""]) {
      expect(schemaNameProblem(name)).toBe(`${name} is not a plain schema name (a-z, 0-9, _)`);
    }
  });
});

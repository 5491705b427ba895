import { describe, expect, it } from "vitest";
import * as api from "./index";

describe("package entry", () => {
  it("exports exactly the public functions", () => {
    expect(Object.keys(api).sort()).toEqual([
      "createPromptParser",
      "describeParseError",
      "parsePrompt",
    ]);
  });
});

import { describe, expect, it } from "vitest";
import * as userInput from "./index";

describe("the package entry point", () => {
  it("exports exactly the public API", () => {
    expect(Object.keys(userInput).sort()).toEqual([
      "LineInputBroker",
      "default",
      "userInputPack",
      "userInputPlugin",
    ]);
  });
});

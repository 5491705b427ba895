import { describe, expect, it } from "vitest";
import * as cli from "./index";

describe("the package entry point", () => {
  it("exports exactly the public API", () => {
    expect(Object.keys(cli).sort()).toEqual([
      "CANCELLED_EXIT_CODE",
      "STOPPED_EXIT_CODE",
      "VERSION",
      "checkCommand",
      "loadCliHost",
      "officialPlugins",
      "runCli",
      "runCommand",
      "testCommand",
      "withOfficialPlugins",
    ]);
  });
});

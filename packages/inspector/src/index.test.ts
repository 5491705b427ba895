import { describe, expect, it } from "vitest";
import * as inspector from "./index";
import * as testing from "./testing";

describe("the package entry points", () => {
  it("export exactly the public API", () => {
    expect(Object.keys(inspector).sort()).toEqual([
      "DEFAULT_PORT",
      "InspectorError",
      "endingView",
      "escapeHtml",
      "runListRow",
      "runVersion",
      "runView",
      "startInspector",
    ]);
    expect(Object.keys(testing).sort()).toEqual([
      "CHROMIUM_ARGS",
      "chromiumPath",
      "chromiumSkipReason",
      "launchChromium",
      "pngStats",
      "requireChromium",
    ]);
  });

  it("serves on 4780 unless told otherwise", () => {
    expect(inspector.DEFAULT_PORT).toBe(4780);
  });
});

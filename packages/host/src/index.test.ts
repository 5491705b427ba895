import { describe, expect, it } from "vitest";
import * as inputFile from "./files/read-input-file";
import * as host from "./index";

describe("@runvil/host entry point", () => {
  it("exports exactly the documented values", () => {
    expect(Object.keys(host).sort()).toEqual([
      "HOST_CONFIG_FILE",
      "HostConfigError",
      "HostSetupError",
      "InputFileError",
      "MAX_INPUT_FILE_BYTES",
      "createHost",
      "findHostConfig",
      "loadHostConfig",
      "modelPortFor",
      "readHostConfig",
      "readInputFile",
      "toolDispatcherFor",
    ]);
    expect(host.HOST_CONFIG_FILE).toBe("runvil.config.json");
  });

  it("exports the input-file subpath's values (@runvil/host/input-file)", () => {
    expect(Object.keys(inputFile).sort()).toEqual([
      "InputFileError",
      "MAX_INPUT_FILE_BYTES",
      "readInputFile",
    ]);
  });
});

import { describe, expect, it } from "vitest";
import * as host from "./index";

describe("@runvil/host entry point", () => {
  it("exports exactly the documented values", () => {
    expect(Object.keys(host).sort()).toEqual([
      "HOST_CONFIG_FILE",
      "HostConfigError",
      "HostSetupError",
      "NOTICE_HEADER",
      "REASON_TOOL_ESCAPES_PACK",
      "ServiceMap",
      "createHost",
      "findHostConfig",
      "loadHostConfig",
      "modelPortFor",
      "toolDispatcherFor",
    ]);
    expect(host.HOST_CONFIG_FILE).toBe("runvil.config.json");
  });
});

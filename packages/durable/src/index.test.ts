import { describe, expect, it } from "vitest";
import * as durable from "./index";

describe("the package entry point", () => {
  it("exports exactly the public API", () => {
    expect(Object.keys(durable).sort()).toEqual([
      "ASK_WAIT_SECONDS",
      "DEFAULT_ASK_TOOLS",
      "DEFAULT_PARK_AFTER_MS",
      "DURABLE_QUEUE",
      "DURABLE_WORKFLOW",
      "DurableError",
      "RUNVIL_VERSION",
      "durableInputBroker",
      "launchDurableWorker",
      "newRunId",
      "openDurableClient",
    ]);
  });

  it("names this package's version as the Runvil version", async () => {
    const { default: pkg } = await import("../package.json", { with: { type: "json" } });
    expect(durable.RUNVIL_VERSION).toBe(pkg.version);
  });

  it("has an input broker that refuses, since durable asks never reach it", async () => {
    await expect(
      durable.durableInputBroker.ask({ signal: new AbortController().signal }),
    ).rejects.toThrow(
      "a durable run's operator asks are answered with `runvil answer`, not through an input broker",
    );
  });
});

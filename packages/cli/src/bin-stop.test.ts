import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { promptDir, removeTestFolders, signalWhen, stuckPrompt } from "./test-bin";
import { NO_USAGE_JSON } from "./test-usage";

afterAll(removeTestFolders);

describe("SIGTERM on the built runvil (a real child process)", () => {
  it("stops a block spinning in `while true do end` and exits 143", async () => {
    const { file, store } = promptDir(
      "store.write('started.txt', 'x')\nwhile true do pcall(function() end) end",
    );
    const exit = await signalWhen(["run", file, "--store", store], join(store, "started.txt"), {
      signals: ["SIGTERM"],
    });
    expect(exit).toEqual({ code: 143, signal: null, stdout: "", stderr: "run stopped\n" });
  });

  it("reports the stopped run on --json", async () => {
    const { file, store } = promptDir(
      "var.spun = true\nstore.write('started.txt', 'x')\nwhile true do end",
    );
    const exit = await signalWhen(
      ["run", file, "--store", store, "--json"],
      join(store, "started.txt"),
      { signals: ["SIGTERM"] },
    );
    expect(exit.code).toBe(143);
    expect(JSON.parse(exit.stdout)).toEqual({
      outcome: "cancelled",
      stopped: true,
      var: {},
      usage: NO_USAGE_JSON,
    });
    expect(exit.stderr).toBe("");
  });

  it("leaves Ctrl-C to cancel a run the stop cannot end", async () => {
    const { file, marker } = stuckPrompt();
    const exit = await signalWhen(["run", file], marker, { signals: ["SIGTERM", "SIGINT"] });
    expect(exit).toEqual({
      code: 130,
      signal: null,
      stdout: "",
      stderr:
        "run cancelled (it did not stop within the grace period; its thread was terminated)\n",
    });
  });
});

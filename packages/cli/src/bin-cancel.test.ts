import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type Exit, promptDir, removeTestFolders, signalWhen, stuckPrompt } from "./test-bin";
import { NO_USAGE_JSON } from "./test-usage";

afterAll(removeTestFolders);

/** Sends SIGINT once `marker` exists (see signalWhen). */
function interruptWhen(
  args: readonly string[],
  marker: string,
  options: { input?: string; repeat?: boolean } = {},
): Promise<Exit> {
  return signalWhen(args, marker, { ...options, signals: ["SIGINT"] });
}

describe("Ctrl-C on the built runvil (a real child process)", () => {
  it("stops a block spinning in `while true do end` and exits 130", async () => {
    const { file, store } = promptDir("store.write('started.txt', 'x')\nwhile true do end");
    const exit = await interruptWhen(["run", file, "--store", store], join(store, "started.txt"));
    expect(exit).toEqual({ code: 130, signal: null, stdout: "", stderr: "run cancelled\n" });
  });

  it("reports the cancelled run on --json", async () => {
    const { file, store } = promptDir(
      "var.spun = true\nstore.write('started.txt', 'x')\nwhile true do end",
    );
    const exit = await interruptWhen(
      ["run", file, "--store", store, "--json"],
      join(store, "started.txt"),
    );
    expect(exit.code).toBe(130);
    expect(JSON.parse(exit.stdout)).toEqual({
      outcome: "cancelled",
      var: {},
      usage: NO_USAGE_JSON,
    });
    expect(exit.stderr).toBe("");
  });

  it("cancels a pending input.ask", async () => {
    const { file, store } = promptDir(
      "store.write('asked.txt', input.ask())\nreturn 'answered ' .. input.ask()",
      "uses: [user-input]\n",
    );
    const exit = await interruptWhen(
      ["run", file, "--store", store, "--input", "stdin"],
      join(store, "asked.txt"),
      { input: "first\n" },
    );
    expect(exit).toEqual({ code: 130, signal: null, stdout: "", stderr: "run cancelled\n" });
  });

  it("terminates a run still stuck after the grace period", async () => {
    const { file, marker } = stuckPrompt();
    const exit = await interruptWhen(["run", file], marker);
    expect(exit).toEqual({
      code: 130,
      signal: null,
      stdout: "",
      stderr:
        "run cancelled (it did not stop within the grace period; its thread was terminated)\n",
    });
  });

  it("exits at once on a second Ctrl-C", async () => {
    const { file, marker } = stuckPrompt();
    const exit = await interruptWhen(["run", file], marker, { repeat: true });
    expect(exit).toEqual({ code: 130, signal: null, stdout: "", stderr: "run cancelled\n" });
  });
});

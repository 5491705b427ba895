import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const example = fileURLToPath(
  new URL("../../../examples/word-count/word-count.md", import.meta.url),
);

describe("the built runvil binary (end to end)", () => {
  it("checks the word-count example and exits 0", async () => {
    const { stdout } = await run(process.execPath, [bin, "check", example]);
    expect(stdout).toContain("word-count.md: ok");
    expect(stdout).toContain("section `Count` epilog  lines 19-23");
  });

  it("runs the word-count example and prints its result", async () => {
    const { stdout, stderr } = await run(process.execPath, [bin, "run", example]);
    expect(stdout).toBe("the=3, and=2, bird=1\n");
    expect(stderr).toBe("");
  });

  it("exits 1 and prints the error for a missing file", async () => {
    const failure = await run(process.execPath, [bin, "check", "no-such-file.md"]).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toBe("no-such-file.md: no such file\n");
  });
});

import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

/**
 * Attack class: inputs without caps (docs/security.md), as `runvil` meets them: `runvil run
 * /dev/zero` read 5.7 GB and `runvil run` on a FIFO waited forever. A prompt file is a regular
 * file of at most 8 MiB; anything else is refused at once, naming the file.
 */

const run = promisify(execFile);
const bin = fileURLToPath(new URL("../../dist/bin.js", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "cli-caps-"));

async function refusal(...args: string[]): Promise<{ code: number; stderr: string }> {
  return run(process.execPath, [bin, ...args], { timeout: 30_000 }).then(
    () => ({ code: 0, stderr: "" }),
    (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
  );
}

describe("security: prompt file caps in the CLI", () => {
  it("refuses runvil run /dev/zero without reading it", async () => {
    expect(await refusal("run", "/dev/zero")).toEqual({
      code: 1,
      stderr: "/dev/zero: is a character device, not a regular file\n",
    });
  });

  it("refuses runvil run and check on a FIFO without waiting for a writer", async () => {
    const fifo = join(dir, "prompt.md");
    execFileSync("mkfifo", [fifo]);
    expect(await refusal("run", fifo)).toEqual({
      code: 1,
      stderr: `${fifo}: is a FIFO (named pipe), not a regular file\n`,
    });
    expect((await refusal("check", fifo)).stderr).toBe(
      `${fifo}: is a FIFO (named pipe), not a regular file\n`,
    );
  });

  it("refuses a prompt file over 8 MiB, naming the cap", async () => {
    const big = join(dir, "big.md");
    writeFileSync(big, "---\n");
    truncateSync(big, 8_388_609);
    expect(await refusal("run", big)).toEqual({
      code: 1,
      stderr: `${big}: is larger than 8388608 bytes, the most a prompt file may hold\n`,
    });
  });

  it("refuses runvil test on a scenario FIFO", async () => {
    const fifo = join(dir, "cases.yaml");
    execFileSync("mkfifo", [fifo]);
    const result = await refusal("test", fifo);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(
      `cannot read ${fifo}: is a FIFO (named pipe), not a regular file`,
    );
  });
});

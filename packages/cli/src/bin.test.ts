import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

  it("prints a long result whole through a pipe read slowly, and exits with the run's code", async () => {
    const dir = mkdtempSync(join(tmpdir(), "runvil-bin-"));
    try {
      const prompt = join(dir, "long.md");
      writeFileSync(
        prompt,
        "---\nname: long\ndescription: A long result.\nrunvil: 0\n---\n\n# Long\n\n```lua\nreturn string.rep('0123456789', 400000)\n```\n",
      );
      const child = spawn(process.execPath, [bin, "run", prompt, "--no-record"], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      const chunks: Buffer[] = [];
      child.stdout.pause();
      // The reader lets the pipe fill before it starts reading.
      setTimeout(() => {
        child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
        child.stdout.resume();
      }, 300);
      const [code] = await once(child, "close");
      expect(code).toBe(0);
      const text = Buffer.concat(chunks).toString("utf8");
      expect(text.length).toBe(4_000_001);
      expect(text).toBe(`${"0123456789".repeat(400_000)}\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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

import { execFileSync } from "node:child_process";
import { mkdtempSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ScenarioPathError } from "../collect-files";
import { ScenarioFormatError } from "../format-error";
import { loadScenarioFile } from "../load-scenarios";

/**
 * Attack class: inputs without caps (docs/security.md). A scenario file and a case's
 * `prompt_file` are regular files of at most 8 MiB; a FIFO, a device or a larger file is refused
 * with a message naming it, before anything waits or reads without end.
 */

const dir = mkdtempSync(join(tmpdir(), "testkit-caps-"));

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("security: scenario input caps", () => {
  it("refuses a scenario file that is a FIFO, a device or over 8 MiB", () => {
    const fifo = join(dir, "cases.yaml");
    execFileSync("mkfifo", [fifo]);
    const big = join(dir, "big.yaml");
    writeFileSync(big, "cases: []\n");
    truncateSync(big, 8_388_609);
    const cases: [string, string][] = [
      [fifo, `cannot read ${fifo}: is a FIFO (named pipe), not a regular file`],
      ["/dev/zero", "cannot read /dev/zero: is a character device, not a regular file"],
      [big, `cannot read ${big}: is larger than 8388608 bytes, the most a scenario file may hold`],
    ];
    for (const [path, message] of cases) {
      const error = thrown(() => loadScenarioFile(path));
      expect(error).toBeInstanceOf(ScenarioPathError);
      expect((error as Error).message).toBe(message);
    }
  });

  it("refuses a prompt_file that is a FIFO or a device, at its key", () => {
    execFileSync("mkfifo", [join(dir, "prompt.md")]);
    const scenario = join(dir, "fifo-prompt.yaml");
    writeFileSync(
      scenario,
      "cases:\n  - name: a\n    prompt_file: prompt.md\n    expect: { result: x }\n  - name: b\n    prompt_file: /dev/zero\n    expect: { result: x }\n",
    );
    const error = thrown(() => loadScenarioFile(scenario));
    expect(error).toBeInstanceOf(ScenarioFormatError);
    expect((error as ScenarioFormatError).issues.map((issue) => issue.message)).toEqual([
      "cannot read prompt.md: is a FIFO (named pipe), not a regular file",
      "cannot read /dev/zero: is a character device, not a regular file",
    ]);
  });
});

import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "vitest/config";

// `runvil run` records every run (docs/design/journal.md): the tests' runs, in this process and
// in the binaries they start, go to a journal of this test run's own, removed at the end.
const journalFolder = join(tmpdir(), `runvil-cli-tests-${process.pid}`);
process.on("exit", () => rmSync(journalFolder, { recursive: true, force: true }));

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    // Robustness tests (huge inputs, many VMs) can run long on a loaded 2-core CI machine;
    // time is never what a test checks (benchmarks measure it).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    benchmark: { include: ["bench/**/*.bench.ts"] },
    env: { RUNVIL_JOURNAL: join(journalFolder, "runs.db") },
  },
});

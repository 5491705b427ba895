import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    // Robustness tests (huge inputs, many VMs) can run long on a loaded 2-core CI machine;
    // time is never what a test checks (benchmarks measure it).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    benchmark: { include: ["bench/**/*.bench.ts"] },
    // `runvil run` records every run (docs/design/journal.md); the tests' runs, in this process
    // and in the binaries they start, record nothing unless a test names a journal (--journal).
    // The default Host offers OpenAI and Anthropic when their keys are set: the tests run as on
    // a machine without them, whatever the developer's environment holds.
    env: { RUNVIL_JOURNAL: "off", OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "" },
  },
});

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadScenarioFile } from "./load-scenarios";
import { runScenarioCase } from "./run-case";

/**
 * The testkit's own scenario files (`src/scenarios/*.scenarios.yaml`): each case runs through the
 * real Engine, Harness and Host with its scripted models, and must pass its own expectations.
 */
const DIR = join(import.meta.dirname, "scenarios");

for (const name of readdirSync(DIR)
  .filter((file) => file.endsWith(".scenarios.yaml"))
  .sort()) {
  const path = join(DIR, name);
  // loadScenarioFile throws a ScenarioFormatError naming every issue of a malformed file.
  const file = loadScenarioFile({ text: readFileSync(path, "utf8"), path });
  describe(name, () => {
    for (const scenarioCase of file.cases) {
      it(scenarioCase.name, async () => {
        const result = await runScenarioCase(path, scenarioCase);
        expect(result.mismatches).toEqual([]);
        expect(result.status).toBe("passed");
      });
    }
  });
}

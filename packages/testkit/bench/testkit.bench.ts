import { bench, describe } from "vitest";
import { checkExpectations, loadScenarioFile, type RunRecord } from "../src/index";
import { lineDiff } from "../src/line-diff";

/** A scenario file of 200 cases in the style of the conformance files. */
const FILE_TEXT = `cases:\n${Array.from(
  { length: 200 },
  (_, i) => `  - name: case ${i}
    spec: "Tools / Offering"
    prompt: |
      ---
      name: case-${i}
      description: A case.
      runvil: 0
      uses: [web]
      ---

      # Case

      ## Main

      \`\`\`lua
      return tostring(${i})
      \`\`\`
    host:
      fixture_tools:
        - { id: stats/read, description: Reads., parameters: { type: object, properties: {} }, returns: "x" }
    models:
      replies:
        - tool_calls:
            - { id: call_1, name: web_search, arguments: { query: lua } }
        - text: "done"
    expect:
      result: "${i}"
      model_requests:
        - tools: [web_search]
        - tools: [web_search]
      events:
        - { type: tool_result, tool_call_id: call_1, alias: web_search, tool: web/search, trusted: false }
`,
).join("\n")}`;

const RECORD: RunRecord = {
  outcome: "succeeded",
  result: "done",
  checkpoints: Array.from({ length: 100 }, (_, i) => `Lua: ${i}`),
  modelRequests: [],
  events: Array.from({ length: 2000 }, (_, i) => ({
    type: i % 2 === 0 ? "model_turn_completed" : "tool_result",
    n: i,
  })),
  store: {},
  var: {},
};

const LEFT = Array.from({ length: 1000 }, (_, i) => `line ${i}`).join("\n");
const RIGHT = Array.from({ length: 1000 }, (_, i) =>
  i % 50 === 0 ? `changed ${i}` : `line ${i}`,
).join("\n");

/** Keeps the results alive so the engine cannot drop the work. */
const sink = { value: 0 };

describe("testkit", () => {
  bench("load a 200-case scenario file", () => {
    sink.value += loadScenarioFile({ text: FILE_TEXT, path: "bench.yaml" }).cases.length;
  });

  bench("check 20 events against 2000 (all found, in order)", () => {
    const events = Array.from({ length: 20 }, (_, i) => ({ type: "tool_result", n: i * 100 + 1 }));
    sink.value += checkExpectations({ events }, RECORD).length;
  });

  bench("check an event that is missing from 2000", () => {
    sink.value += checkExpectations({ events: [{ type: "tool_result", n: -1 }] }, RECORD).length;
  });

  bench("line diff of two 1000-line texts with 20 changes", () => {
    sink.value += lineDiff(LEFT, RIGHT).length;
  });
});

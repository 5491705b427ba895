// Cases of /work/shared/conformance/tools/10-model-tool-calls.yaml that need no model and no prelude, copied
// verbatim (prompts as lines) and run on the scenario Host of src/tools/test-support.
// Left for the model and prelude areas:
// - search-loop runs the model's web_search call (a model)
// - offered ids and Tool objects reach the model as wire names in offer order (a model)
// - a catalog tool whose schema is not a JSON object is left out (a model)
// - two ids with the same wire name offer only one tool (a model)
// - bound and local tools mix in one round, bound first (a model)
// - a reply with arguments that are not a JSON object fails the round and runs no call (a model)
// - a reply whose call ids repeat fails the round and runs no call (a model)
// - one tool round leaves four records (a model)
// - a single call then a final reply reports turn, call, turn events (a model)
// - a structured tool's result reaches the loop as plain text (a model)
// - a model call to a name the round did not advertise is out of scope (a model)
// - a four-call batch appends tool records in call order (a model)
// - mixed-batch runs catalog, local, and task built-in calls in the model's order (a model)
// - local calls in one round run one at a time and share the closure (a model)
// - a model call to web_search reports the batch event then a tool_result (a model)
// - a failed bound call still reports an untrusted tool_result (a model)
// - the first round validates the tool scope before its turn completes (a model)
import { describe, it } from "vitest";
import { checkToolCase, type ToolCase } from "../tools/test-support/tool-case";

const cases: ToolCase[] = [
  {
    name: "a script call by wire name or bare name is unbound",
    prompt: [
      "---",
      "name: wire-bare",
      "description: Calls tools by wire name and bare name.",
      "runvil: 0",
      "uses: [web]",
      "---",
      "",
      "# Wire bare",
      "",
      "## Only",
      "",
      "```lua",
      "local wire_ok, wire_err = pcall(tools.call, 'web_search', {})",
      "local bare_ok, bare_err = pcall(tools.call, 'search', {})",
      "return wire_err.kind .. ':' .. wire_err.name .. '|' .. bare_err.kind .. ':' .. bare_err.name",
      "```",
    ],
    expect: {
      result: "unbound_tool:web_search|unbound_tool:search",
    },
  },
];

describe("10-model-tool-calls", () => {
  for (const c of cases) it(c.name, async () => void (await checkToolCase(c)));
});

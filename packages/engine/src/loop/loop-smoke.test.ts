import { describe, expect, it } from "vitest";
import { modelPrompt, runModelPrompt, succeeded } from "../models/test-support/model-run";

describe("smoke", () => {
  it("runs a loop with a local tool", async () => {
    const run = await runModelPrompt(
      modelPrompt(`models.use('writer')
tools.offer_local('grab', 'Grab a value', { value = 'string' }, function(args)
  return 'grabbed ' .. args.value
end)
messages:user('Grab x.')
local r = models.loop()
return r .. '|' .. #messages .. '|' .. messages[3].content .. '|' .. messages[3].tool_call_id`),
      {
        models: {
          replies: [
            { tool_calls: [{ id: "call_1", name: "grab", arguments: { value: "x" } }] },
            { text: "done" },
          ],
        },
      },
    );
    expect(succeeded(run)).toBe("done|4|grabbed x|call_1");
  });
});

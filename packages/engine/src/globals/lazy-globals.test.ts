import { describe, expect, it } from "vitest";
import { body, lua } from "../test-support/lua-fence";
import { promptText } from "../test-support/parse";
import { resultText, runTestPrompt } from "../test-support/run-prompt";

/**
 * The lazy globals (docs/design/lazy-globals.md): installed in one chunk, their areas loaded on
 * first use, yet what prompt code sees is what the areas' own cores gave it.
 */

const run = (...parts: string[]) => runTestPrompt(promptText(body("# T", ...parts)));

describe("the lazy globals", () => {
  it("are raw globals of every section: listed by next, typed, sealed where the areas seal them", async () => {
    const text = resultText(
      await run(
        "## Main",
        lua(`local seen = {}
for name in next, _G do seen[name] = true end
local out = {}
for _, name in ipairs({ 'prompt', 'models', 'tasks', 'compactors', 'messages' }) do
  out[#out + 1] = name .. '=' .. tostring(seen[name] == true) .. ':' .. type(_G[name])
end
out[#out + 1] = tostring(getmetatable(prompt)) .. ',' .. tostring(getmetatable(models))
  .. ',' .. tostring(getmetatable(compactors)) .. ',' .. tostring(getmetatable(tasks))
local names = {}
for k, v in pairs(tasks) do names[#names + 1] = k .. ':' .. type(v) end
out[#out + 1] = table.concat(names, ',')
return table.concat(out, '|')`),
      ),
    );
    expect(text).toBe(
      [
        "prompt=true:table",
        "models=true:table",
        "tasks=true:table",
        "compactors=true:table",
        "messages=false:userdata",
        "prompt is sealed,models is sealed,compactors is sealed,nil",
        "cancel:function,concurrency:function,fanout:function,join:function,join_any:function,note:function,spawn:function",
      ].join("|"),
    );
  });

  it("keep what their areas took from the sandbox before any prompt code ran", async () => {
    const text = resultText(
      await run(
        "## Main",
        lua(`local concat, tostring, ipairs = table.concat, tostring, ipairs
pairs, pcall, next = nil, nil, nil
math.type, math.tointeger, math.huge, table.concat = nil, nil, nil, nil
string.gsub, string.match, string.find = nil, nil, nil
json = nil
messages:user('first')
messages:user('second')
local kept = compactors.keep_last(1)(messages:copy(), {})
local handle = tasks.spawn('## Child', { n = 2 })
local joined = tasks.join({ handle })
local arms = tasks.fanout('## Child', { { n = 1 }, { n = 3 } })
return concat({ prompt.section('## Text'), tostring(#messages), tostring(#kept),
  tostring(joined[1].ok), tostring(joined[1].result), arms[1].text, arms[2].text }, '|')`),
        "## Text",
        "Plain words.",
        "## Child",
        lua("return tostring(item.n * 21)"),
      ),
    );
    expect(text).toBe("Plain words.|2|2|true|42|21|63");
  });

  it("refuse assignments with each area's own text", async () => {
    const text = resultText(
      await run(
        "## Main",
        lua(`local out = {}
for _, f in ipairs({
  function() prompt.x = 1 end,
  function() models.x = 1 end,
  function() compactors.x = 1 end,
  function() messages = 1 end,
}) do
  local ok, err = pcall(f)
  out[#out + 1] = tostring(ok) .. ':' .. tostring(err)
end
return table.concat(out, '|')`),
      ),
    );
    expect((text ?? "").split("|").map((part) => part.replace(/^false:/, ""))).toEqual([
      "prompt is read-only; cannot set 'x'",
      "models is read-only; cannot set 'x'",
      "compactors is read-only; cannot set 'x'",
      expect.stringContaining("messages"),
    ]);
  });
});

import { describe, expect, it } from "vitest";
import { resultOf } from "../iteration/test-support";

/**
 * Attack class: `next` revisits (docs/security.md). Checked against the lua chapter ("Changing
 * a table during a next loop"): "A cleared integer key of 1 or more resumes as if it were in the
 * array part … clearing an integer key that was in the hash part makes the walk replay the
 * scalar keys that sort after the array part … No key is lost, and a pairs loop never does
 * this." So the walk is the chapter's rule, not a bug: it ends, loses no key, and a
 * pairs loop over the same table visits each key once.
 */

const CLEAR_4_AND_29 = `
local t = { [4] = 1, [29] = 2, [22] = 3 }
local seen = {}
for k in %s do
  seen[#seen + 1] = tostring(k)
  if k == 4 or k == 29 then t[k] = nil end
end
return table.concat(seen, ', ')`;

describe("security: next revisits after a cleared hash-part integer key", () => {
  it("replays 22 after 29 is cleared: 4, 22, 29, 22, and the walk ends", async () => {
    expect(await resultOf(CLEAR_4_AND_29.replace("%s", "next, t"))).toBe("4, 22, 29, 22");
  });

  it("visits each key once under pairs, which walks a snapshot", async () => {
    expect(await resultOf(CLEAR_4_AND_29.replace("%s", "pairs(t)"))).toBe("4, 22, 29");
  });

  it("loses no key: clearing every key as it is visited still ends", async () => {
    expect(
      await resultOf(`
local t = { [4] = 1, [29] = 2, [22] = 3 }
local seen = {}
for k in next, t do seen[#seen + 1] = tostring(k) t[k] = nil end
return table.concat(seen, ', ') .. '|' .. tostring(next(t))`),
    ).toBe("4, 22, 29|nil");
  });
});

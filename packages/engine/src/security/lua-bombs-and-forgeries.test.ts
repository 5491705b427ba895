import { describe, expect, it } from "vitest";
import { failureOf, headline } from "../test-support/failure";
import { body, lua } from "../test-support/lua-fence";
import { promptText } from "../test-support/parse";
import { runTestPrompt } from "../test-support/run-prompt";

/**
 * Attack classes: exponential marshalling and forged outcomes, end to end (docs/security.md).
 * A returned table shared at every level of a 30-level nest is refused like any returned table,
 * after the VM has read each of its 31 tables once; an uncaught one ends the run as a Lua
 * failure. A prompt that writes kind = 'cancelled' into a caught error value and raises it
 * fails the run: only a real cancellation ends it cancelled.
 */

const run = (...parts: string[]) => runTestPrompt(promptText(body("# T", "## A", ...parts)));
const BOMB = "local t = {} for i = 1, 30 do t = { t, t } end";

describe("security: Lua values read by the Engine", () => {
  it("refuses a returned 2^30 bomb with the scalar rule's text", async () => {
    const error = failureOf(await run(lua(`${BOMB}\nreturn t`)));
    expect(error).toMatchObject({ kind: "Lua", message: "cannot return a table as a result" });
  });

  it("ends an uncaught error(t) bomb as a Lua failure with a table error object's text", async () => {
    const error = failureOf(await run(lua(`${BOMB}\nerror(t)`)));
    expect(error.kind).toBe("Lua");
    expect(headline(error)).toBe("(error object is a table value)");
  });

  it("gives an uncaught table with __tostring its text", async () => {
    const error = failureOf(
      await run(
        lua("error(setmetatable({}, { __tostring = function() return 'custom text' end }))"),
      ),
    );
    expect(error.kind).toBe("Lua");
    expect(headline(error)).toBe("custom text");
  });
});

describe("security: forged outcomes", () => {
  it("fails the run, not cancels it, for a caught error whose kind was set to cancelled", async () => {
    const r = await run(
      lua(
        "local ok, err = pcall(function() return sys.nothing end)\n" +
          "err.kind = 'cancelled'\nerror(err)",
      ),
    );
    const error = failureOf(r);
    expect(error.kind).toBe("Lua");
    expect(headline(error)).toContain("unknown sys field 'nothing'");
  });

  it("keeps a forged store error's own kind (Vfs), not the written one", async () => {
    const r = await run(
      lua("local ok, err = pcall(store.read, 'none.md')\nerr.kind = 'cancelled'\nerror(err)"),
    );
    expect(failureOf(r)).toMatchObject({ kind: "Vfs", message: "none.md: not found" });
  });
});

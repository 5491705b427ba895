import { describe, expect, it } from "vitest";
import {
  PRELUDE_LOAD_RULE,
  preludeChunkName,
  preludeCollisionMessage,
  preludeKeyTypeMessage,
  preludeLoadFailureMessage,
  preludeNameNotUtf8Message,
  preludeReadOnlyMessage,
  preludeReservedNameMessage,
  preludeSealedText,
  preludeVarReadOnlyMessage,
} from "./messages";

describe("prelude messages", () => {
  it("word the load failure as the chapter does, traceback on the next lines", () => {
    expect(PRELUDE_LOAD_RULE).toBe(
      "A prelude only defines functions; it must not call tools while loading.",
    );
    expect(preludeLoadFailureMessage("kit", "pack:kit:2: boom")).toBe(
      "Pack `kit`: its prelude failed to load: pack:kit:2: boom. A prelude only defines functions; it must not call tools while loading.",
    );
    expect(
      preludeLoadFailureMessage("kit", "boom", "stack traceback:\n\tpack:kit:2: in main chunk"),
    ).toBe(
      "Pack `kit`: its prelude failed to load: boom. A prelude only defines functions; it must not call tools while loading.\nstack traceback:\n\tpack:kit:2: in main chunk",
    );
  });

  it("word the name refusals", () => {
    expect(preludeReservedNameMessage("helper", "tools")).toBe(
      "Pack `helper`: its prelude defines the global `tools`, which is reserved as an Engine global",
    );
    expect(preludeCollisionMessage("beta", "shared", "alpha")).toBe(
      "Pack `beta`: its prelude defines the global `shared`, which Pack `alpha`'s prelude already defines",
    );
    expect(preludeKeyTypeMessage("kit", "integer")).toBe(
      "Pack `kit`: its prelude defines a global with a key of type `integer`, which is not a global name",
    );
    expect(preludeNameNotUtf8Message("kit")).toBe(
      "Pack `kit`: its prelude defines a global whose name is not valid UTF-8",
    );
  });

  it("word the read-only refusals and texts", () => {
    expect(preludeReadOnlyMessage("input", "user-input", "extra")).toBe(
      "input is read-only: Pack `user-input` defines it; cannot set 'extra'",
    );
    expect(preludeVarReadOnlyMessage("var.cfg.list[1]", "n")).toBe(
      "var.cfg.list[1] is read-only inside a Pack prelude; cannot set 'n'",
    );
    expect(preludeSealedText("input")).toBe("input is sealed");
    expect(preludeChunkName("user-input")).toBe("=pack:user-input");
  });
});

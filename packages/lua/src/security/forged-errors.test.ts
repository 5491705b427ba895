import { describe, expect, it } from "vitest";
import { EngineError } from "../engine-error";
import { installStandIns, resultOf, runAt, withErrorsVm } from "../errors/test-support";
import { type UncaughtError, uncaughtError } from "../errors/uncaught-error";
import type { LuaVm } from "../vm/lua-vm";

/**
 * Attack class: forged outcomes (docs/security.md). An error value's fields are plain, writable
 * table fields (lua chapter, "The thirteen error kinds"), so a prompt can write any kind into a
 * caught value. The Engine reads the kind it recorded when it made the value, never the field,
 * so a rewritten kind cannot turn a failure into a cancellation (exit 130) or any other kind.
 */

async function uncaught(vm: LuaVm, source: string): Promise<UncaughtError> {
  const outcome = await runAt(vm, 12, source);
  if (outcome.ok) throw new Error("the block did not fail");
  return uncaughtError(outcome, () => "section `Main` prologue");
}

describe("security: forged outcomes", () => {
  it("keeps a caught store error a store error after kind = 'cancelled'", async () => {
    await withErrorsVm(async (vm) => {
      installStandIns(vm);
      const failure = await uncaught(
        vm,
        "local ok, err = pcall(store.read_now, 'x.md')\nerr.kind = 'cancelled'\nerror(err)",
      );
      expect(failure.outcome).toBe("failed");
      expect(failure.error.kind).toBe("store");
      expect(failure.message).toBe("x.md: not found");
    });
  });

  it("keeps a caught lua error a Lua failure after kind = 'cancelled'", async () => {
    await withErrorsVm(async (vm) => {
      installStandIns(vm);
      const failure = await uncaught(
        vm,
        "local ok, err = pcall(function() return sys.nothing end)\n" +
          "err.kind = 'cancelled'\nerr.message = 'cancelled'\nerror(err, 0)",
      );
      expect(failure.outcome).toBe("failed");
      expect(failure.error.kind).toBe("lua");
      expect(failure.message).toMatch(
        /^section `Main` prologue:15: runtime error: section `Main` prologue:15: cancelled\n/,
      );
    });
  });

  it("lets Lua read back the kind it wrote: the fields stay plain and writable", async () => {
    await withErrorsVm(async (vm) => {
      installStandIns(vm);
      expect(
        await resultOf(
          vm,
          "local ok, err = pcall(store.read_now, 'x.md')\nerr.kind = 'cancelled'\nreturn err.kind",
        ),
      ).toBe("cancelled");
    });
  });

  it("never takes a hand-built { kind = 'cancelled' } for a cancellation", async () => {
    await withErrorsVm(async (vm) => {
      const failure = await uncaught(vm, "error({ kind = 'cancelled', message = 'cancelled' })");
      expect(failure.outcome).toBe("failed");
      expect(failure.error.kind).toBe("lua");
    });
  });

  it("still ends the run cancelled for a real cancelled error value, re-raised unchanged", async () => {
    await withErrorsVm(async (vm) => {
      vm.setGlobal("join", () => {
        throw new EngineError("cancelled", "task 0.1 was cancelled", { task: "0.1" });
      });
      const failure = await uncaught(vm, "local ok, err = pcall(join)\nerror(err)");
      expect(failure.outcome).toBe("cancelled");
      expect(failure.error.fields).toMatchObject({ task: "0.1" });
    });
  });

  it("keeps the recorded kind of a real cancelled value whose kind field was rewritten", async () => {
    await withErrorsVm(async (vm) => {
      vm.setGlobal("join", () => {
        throw new EngineError("cancelled", "task 0.1 was cancelled", { task: "0.1" });
      });
      const failure = await uncaught(
        vm,
        "local ok, err = pcall(join)\nerr.kind = 'lua'\nerror(err)",
      );
      expect(failure.outcome).toBe("cancelled");
    });
  });
});

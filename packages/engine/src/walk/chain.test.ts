import { describe, expect, it } from "vitest";
import { testRootScope } from "../test-support/scope";
import { CALL_RECURSION_MESSAGE, Chain } from "./chain";

describe("Chain", () => {
  it("numbers entries and children with separate chain-local counters", async () => {
    const root = Chain.root(await testRootScope());
    expect(root.nextEntryId()).toBe("0.0");
    expect(root.nextEntryId()).toBe("0.1");
    const first = root.openCallChain(null);
    const second = root.openCallChain(3);
    expect([first.id, second.id]).toEqual(["0.0", "0.1"]);
    expect(second.container).toBe(3);
    expect(second.nextEntryId()).toBe("0.1.0");
    expect(second.openCallChain(null).id).toBe("0.1.0");
    expect(root.nextEntryId()).toBe("0.2");
    expect(root.entryCount).toBe(3);
  });

  it("inherits the task id and counts depth up to the cap of 8", async () => {
    let chain = Chain.root(await testRootScope());
    for (let depth = 1; depth <= 8; depth++) {
      expect(chain.atCallCap).toBe(false);
      chain = chain.openCallChain(null);
      expect(chain.depth).toBe(depth);
      expect(chain.taskId).toBe("0");
    }
    expect(chain.atCallCap).toBe(true);
    expect(CALL_RECURSION_MESSAGE).toBe("call recursion exceeded cap of 8");
  });

  it("runs the root chain in the root scope, and every call chain in its opener's scope", async () => {
    const scope = await testRootScope();
    const root = Chain.root(scope);
    const call = root.openCallChain(null);
    expect(root.scope).toBe(scope);
    expect(call.scope).toBe(scope);
    expect(call.openCallChain(2, "{}").scope).toBe(scope);
    expect(() => Chain.root(scope.fork())).toThrow("the root chain runs in the root scope");
  });

  it("opens task chains from the counter shared with call, in a fork of the opener's scope", async () => {
    const scope = await testRootScope();
    const root = Chain.root(scope);
    const call = root.openCallChain(null);
    const task = root.openTaskChain(2, '"x"', 7);
    expect([call.id, task.id, task.taskId]).toEqual(["0.0", "0.1", "0.1"]);
    expect(task.scope).not.toBe(scope);
    expect(task.depth).toBe(1);
    expect(task.container).toBe(2);
    expect(task.itemJson).toBe('"x"');
    expect(task.indexOf(task.nextEntryId())).toBe(7);
    expect(task.indexOf(task.nextEntryId())).toBeUndefined();
    const inner = task.openCallChain(null);
    expect([inner.taskId, inner.itemJson, inner.scope]).toEqual(["0.1", undefined, task.scope]);
    scope.end({ kind: "cancelled" });
    expect(task.scope.ending).toEqual({ kind: "cancelled" });
  });

  it("keeps a task's ending out of its opener's scope", async () => {
    const scope = await testRootScope();
    const task = Chain.root(scope).openTaskChain(null, "null");
    task.scope.end({ kind: "cancelled" });
    expect(scope.ending).toBeUndefined();
  });
});

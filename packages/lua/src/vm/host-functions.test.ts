import { describe, expect, it } from "vitest";
import { HostFunctionTable } from "./host-functions";
import { values, withVm } from "./test-support";
import type { HostFunction } from "./values";

describe("HostFunctionTable", () => {
  it("indexes entries in order and reuses the entry of a function added again", () => {
    const table = new HostFunctionTable();
    const read: HostFunction = () => undefined;
    const write: HostFunction = () => undefined;
    expect(table.add({ kind: "host", name: "store.read", fn: read })).toBe(0);
    expect(table.add({ kind: "host", name: "store.write", fn: write })).toBe(1);
    expect(table.add({ kind: "host", name: "alias", fn: read })).toBe(0);
    expect(table.size).toBe(2);
    expect(table.get(0)).toMatchObject({ name: "store.read" });
    expect(table.get(2)).toBeUndefined();
  });

  it("lets one JS function serve several VMs, each with its own entry", async () => {
    const seen: number[] = [];
    const shared: HostFunction = (call) => {
      seen.push(call.vm.memoryLimit);
      return [call.vm.memoryLimit];
    };
    await withVm(
      (first) =>
        withVm(
          async (second) => {
            first.setGlobalFunction("limit", shared);
            second.setGlobalFunction("limit", shared);
            expect(await values(first, "return limit()")).toEqual([1_000_000]);
            expect(await values(second, "return limit()")).toEqual([2_000_000]);
          },
          { luaMemoryBytes: 2_000_000 },
        ),
      { luaMemoryBytes: 1_000_000 },
    );
    expect(seen).toEqual([1_000_000, 2_000_000]);
  });
});

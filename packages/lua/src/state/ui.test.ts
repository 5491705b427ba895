import { describe, expect, it } from "vitest";
import type { JsonObject } from "../json/value";
import type { LuaVm } from "../vm/lua-vm";
import { runValue, withStateVm } from "./test-support";
import { installUi } from "./ui";

const SNAPSHOT: JsonObject = { selected_model: "m-1", workspace_root: null };

const HOST_MODEL = `
if ui then
  local state = ui()
  return state.selected_model .. '/' .. tostring(state.workspace_root)
end
return 'no host state'`;

function withUi<T>(snapshot: JsonObject | undefined, use: (vm: LuaVm) => Promise<T>): Promise<T> {
  return withStateVm((vm) => installUi(vm, snapshot), use);
}

describe("ui() (06-sys-and-ui.yaml)", () => {
  it("host-model reads the snapshot when the run has one", async () => {
    expect(await withUi(SNAPSHOT, (vm) => runValue(vm, HOST_MODEL))).toBe("m-1/nil");
  });

  it("host-model without a snapshot has no ui global", async () => {
    expect(await withUi(undefined, (vm) => runValue(vm, HOST_MODEL))).toBe("no host state");
  });

  it("without a snapshot ui is nil and calling it fails", async () => {
    const result = await withUi(undefined, (vm) =>
      runValue(
        vm,
        "local ok = pcall(function() return ui() end) return type(ui) .. '|' .. tostring(ok)",
      ),
    );
    expect(result).toBe("nil|false");
  });

  it("each ui() call builds a fresh table", async () => {
    const result = await withUi(SNAPSHOT, (vm) =>
      runValue(
        vm,
        `local first = ui()
         first.selected_model = 'changed'
         local second = ui()
         return type(ui) .. '|' .. second.selected_model .. '|' .. tostring(first == second)`,
      ),
    );
    expect(result).toBe("function|m-1|false");
  });

  it("the snapshot stays the same in later blocks", async () => {
    await withUi(SNAPSHOT, async (vm) => {
      await runValue(vm, "ui().selected_model = 'x'");
      expect(await runValue(vm, "return ui().selected_model")).toBe("m-1");
    });
  });

  it("keeps JSON types: integers, floats, booleans, nested objects and arrays, nulls as nil", async () => {
    const snapshot: JsonObject = {
      n: 2n,
      x: 2,
      f: 1.5,
      yes: true,
      no: false,
      list: ["a", null, 3n],
      empty: [],
      nested: { deep: { name: "é" } },
    };
    Object.defineProperty(snapshot, "__proto__", { value: "kept", enumerable: true });
    const result = await withUi(snapshot, (vm) =>
      runValue(
        vm,
        `local s = ui()
         local keys = 0
         for _ in pairs(s) do keys = keys + 1 end
         return table.concat({
           math.type(s.n), math.type(s.x), tostring(s.x), tostring(s.f),
           tostring(s.yes), tostring(s.no),
           s.list[1], tostring(s.list[2]), math.type(s.list[3]),
           type(s.empty), tostring(next(s.empty)),
           s.nested.deep.name, s.__proto__, tostring(keys),
           tostring(getmetatable(s)), tostring(s.nested == ui().nested),
         }, ',')`,
      ),
    );
    expect(result).toBe(
      "integer,float,2.0,1.5,true,false,a,nil,integer,table,nil,é,kept,9,nil,false",
    );
  });

  it("library code can call ui() from any block of the section", async () => {
    await withUi(SNAPSHOT, async (vm) => {
      await runValue(vm, "lib_model = ui().selected_model");
      expect(await runValue(vm, "return lib_model")).toBe("m-1");
    });
  });

  it("ignores arguments and survives a replaced global environment", async () => {
    const result = await withUi(SNAPSHOT, (vm) =>
      runValue(vm, "type = nil local f = ui _G.ui = nil return f(1, 2).selected_model"),
    );
    expect(result).toBe("m-1");
  });

  it("refuses a snapshot that is not JSON data", async () => {
    await withStateVm(
      (vm) => {
        expect(() => installUi(vm, { x: Number.NaN })).toThrow("NaN is not JSON data");
      },
      async (vm) => expect(await runValue(vm, "return type(ui)")).toBe("nil"),
    );
  });
});

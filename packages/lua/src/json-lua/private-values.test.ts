import { describe, expect, it } from "vitest";
import { withVm } from "../vm/test-support";
import { installJson } from "./install";
import { ensureJsonPrivateValues } from "./private-values";
import { resultOf } from "./test-support";

describe("the private values json shares", () => {
  it("are created once, by whichever area runs first, and used by json", async () => {
    await withVm(async (vm) => {
      ensureJsonPrivateValues(vm);
      // An area installed before json marks a list and stores a null with the private values.
      const early = vm.runPrivileged({
        source: `local P = ...
P.rawset(P._G, 'early', { list = P.setmetatable({}, P.json_list_marker), none = P.json_null })
return P.type(P.json_null), P.getmetatable(P.setmetatable({}, P.json_list_marker))`,
        chunkName: "=early area",
      });
      expect(early).toEqual({ ok: true, values: ["userdata", false] });
      installJson(vm);
      ensureJsonPrivateValues(vm);
      expect(
        await resultOf(
          vm,
          "return json.encode(early) .. ' ' .. tostring(early.none == json.null) .. ' ' .. tostring(json.array(early.list) == early.list)",
        ),
      ).toBe('{"list":[],"none":null} true true');
    });
  });

  it("give every VM the same json.null", async () => {
    await withVm(async (a) => {
      await withVm(async (b) => {
        installJson(a);
        installJson(b);
        const nullOf = (vm: typeof a) =>
          vm.runPrivileged({
            source: "local P = ... return P.tostring(P.json_null)",
            chunkName: "=n",
          });
        expect(nullOf(a)).toEqual(nullOf(b));
      });
    });
  });
});

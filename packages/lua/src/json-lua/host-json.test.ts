import { describe, expect, it } from "vitest";
import { EngineError } from "../engine-error";
import { VmHandle } from "../vm/lua-vm";
import { pushGlobals } from "../vm/sandbox";
import { encodeLuaValueAt, pushDecodedJson } from "./host-json";
import { resultOf, withJsonVm } from "./test-support";

const utf8 = new TextDecoder();

describe("json for the Engine's JavaScript side", () => {
  it("pushes decoded values built as json.decode builds them", async () => {
    await withJsonVm(async (vm) => {
      const state = VmHandle.stateOf(vm);
      state.hostOp(() => {
        const { kernel, L } = state;
        pushGlobals(state, L);
        kernel.pushText(L, "doc");
        pushDecodedJson(state, L, '{"items":[],"none":null,"n":1}');
        kernel.x.lua_rawset(L, -3);
        kernel.x.lua_settop(L, -2);
      });
      expect(
        await resultOf(
          vm,
          "return json.encode(doc) .. ' ' .. tostring(doc.none == json.null) .. ' ' .. math.type(doc.n)",
        ),
      ).toBe('{"items":[],"n":1,"none":null} true integer');
      expect(() =>
        state.hostOp(() => pushDecodedJson(state, state.L, "[1,", "tool result")),
      ).toThrow(
        new EngineError("lua", "tool result: EOF while parsing a value at line 1 column 3"),
      );
    });
  });

  it("encodes a Lua value by json.encode's rules and leaves the stack as it was", async () => {
    await withJsonVm(async (vm) => {
      await resultOf(vm, "doc = { b = json.array(), a = { 1.0, json.null }, f = print or error }");
      const state = VmHandle.stateOf(vm);
      const { kernel, L } = state;
      const encode = (debug: boolean) =>
        state.hostOp(() => {
          pushGlobals(state, L);
          kernel.pushText(L, "doc");
          kernel.x.lua_rawget(L, -2);
          const top = kernel.x.lua_gettop(L);
          try {
            return utf8.decode(encodeLuaValueAt(state, L, -1, { debug, functionName: "var" }));
          } finally {
            expect(kernel.x.lua_gettop(L)).toBe(top);
            kernel.x.lua_settop(L, -3);
          }
        });
      expect(encode(true)).toBe('{"a":[1,null],"b":[],"f":"[function]"}');
      expect(() => encode(false)).toThrow("var: value.f must be JSON data, got function");
    });
  });
});

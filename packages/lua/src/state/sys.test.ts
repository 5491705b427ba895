import { describe, expect, it } from "vitest";
import type { LuaVm } from "../vm/lua-vm";
import { installSys, type SysFacts } from "./sys";
import { runFailure, runValue, withStateVm } from "./test-support";

const FACTS: SysFacts = {
  sectionName: "Only",
  sectionCount: 1,
  execution: "run-1",
  when: Date.parse("2000-01-01T00:00:00Z"),
  id: "0.1",
  taskId: "0",
};

function withSys<T>(facts: SysFacts, use: (vm: LuaVm) => Promise<T>): Promise<T> {
  return withStateVm((vm) => installSys(vm, facts), use);
}

describe("sys fields (06-sys-and-ui.yaml)", () => {
  it("where-am-i reads run facts from sys", async () => {
    const result = await withSys(FACTS, (vm) =>
      runValue(vm, "return sys.section_name .. ' ' .. sys.id .. ' of ' .. sys.section_count"),
    );
    expect(result).toBe("Only 0.1 of 1");
  });

  it("a sys field reads the same with bracket syntax", async () => {
    const result = await withSys(FACTS, (vm) =>
      runValue(vm, "return tostring(sys['when'] == sys.when) .. ' ' .. type(sys.section_count)"),
    );
    expect(result).toBe("true number");
  });

  it("two-sections: section name, count and run name, as strings and integers", async () => {
    const facts = { ...FACTS, sectionName: "Beta", sectionCount: 2, execution: "execute-test" };
    const result = await withSys(facts, (vm) =>
      runValue(
        vm,
        `assert(sys.section_name == 'Beta')
         assert(sys.section_count == 2)
         assert(math.type(sys.section_count) == 'integer')
         assert(type(sys.id) == 'string' and type(sys.taskid) == 'string')
         return sys.execution`,
      ),
    );
    expect(result).toBe("execute-test");
  });

  it("title-demo: the H1 pass reads the title as the section name", async () => {
    const result = await withSys({ ...FACTS, sectionName: "Title Demo" }, (vm) =>
      runValue(vm, "return sys.section_name"),
    );
    expect(result).toBe("Title Demo");
  });

  it("arm-task: sys.taskid reads the task's own id", async () => {
    const result = await withSys({ ...FACTS, taskId: "0.0" }, (vm) =>
      runValue(vm, "return sys.taskid"),
    );
    expect(result).toBe("0.0");
  });

  it.each([
    ["2000-02-29T00:00:00.123Z", "2000-02-29T00:00:00.123Z"],
    ["2024-02-29T12:34:56Z", "2024-02-29T12:34:56Z"],
    ["2000-01-01T00:00:00.005Z", "2000-01-01T00:00:00.005Z"],
    ["2000-01-01T00:00:00.050Z", "2000-01-01T00:00:00.05Z"],
    ["1969-07-20T20:17:40Z", "1969-07-20T20:17:40Z"],
    ["9999-12-31T23:59:59.999Z", "9999-12-31T23:59:59.999Z"],
    ["2000-01-01T00:00:00Z", "2000-01-01T00:00:00Z"],
  ])("sys.when for a start at %s reads %s", async (start, expected) => {
    const result = await withSys({ ...FACTS, when: Date.parse(start) }, (vm) =>
      runValue(vm, "assert(sys.when == sys.when) return sys.when"),
    );
    expect(result).toBe(expected);
  });

  it("the first ten characters of sys.when are the date", async () => {
    const result = await withSys({ ...FACTS, when: Date.parse("2000-02-29T00:00:00.123Z") }, (vm) =>
      runValue(vm, "return string.sub(sys.when, 1, 10)"),
    );
    expect(result).toBe("2000-02-29");
  });
});

describe("sys.index and sys.model (06-sys-and-ui.yaml)", () => {
  it("sys.index in an ordinary walked section is an unknown field", async () => {
    const result = await withSys(FACTS, (vm) =>
      runValue(vm, "local ok, err = pcall(function() return sys.index end) return tostring(err)"),
    );
    expect(result).toBe("runtime error: unknown sys field 'index'");
  });

  it("a task's first entry reads sys.index as an integer", async () => {
    const result = await withSys({ ...FACTS, index: 7 }, (vm) =>
      runValue(vm, "return math.type(sys.index) .. ':' .. sys.index"),
    );
    expect(result).toBe("integer:7");
  });

  it("reading sys.model under pcall before any tool call", async () => {
    const result = await withSys(FACTS, (vm) =>
      runValue(
        vm,
        "local ok, id = pcall(function() return sys.model end) return ok and id or 'no tool call yet'",
      ),
    );
    expect(result).toBe("no tool call yet");
  });

  it("a caught unknown sys field error reads runtime error", async () => {
    const result = await withSys(FACTS, (vm) =>
      runValue(vm, "local ok, id = pcall(function() return sys.model end) return tostring(id)"),
    );
    expect(result).toBe("runtime error: unknown sys field 'model'");
  });

  it("sys.model becomes readable once the Engine binds the model, also inside a running block", async () => {
    await withStateVm(
      (vm) => {
        const sys = installSys(vm, FACTS);
        vm.setGlobal("tool_call", () => {
          sys.setModel("claude-sonnet-4-6");
          sys.setModel("ignored-later");
        });
      },
      async (vm) => {
        const result = await runValue(
          vm,
          `local before = pcall(function() return sys.model end)
           tool_call()
           return tostring(before) .. ' / ' .. sys.model .. ' / ' .. sys.model`,
        );
        expect(result).toBe("false / claude-sonnet-4-6 / claude-sonnet-4-6");
        expect(await runValue(vm, "return sys.model")).toBe("claude-sonnet-4-6");
      },
    );
  });

  it("a model known at setup reads at once", async () => {
    const result = await withStateVm(
      (vm) => {
        const sys = installSys(vm, { ...FACTS, model: "m-1" });
        expect(sys.model).toBe("m-1");
      },
      (vm) => runValue(vm, "return sys.model"),
    );
    expect(result).toBe("m-1");
  });

  it("an uncaught unknown sys field ends the block", async () => {
    const message = await withSys(FACTS, (vm) => runFailure(vm, "return sys.nothing"));
    expect(message).toBe("runtime error: unknown sys field 'nothing'");
  });
});

describe("sys is sealed and read-only (06-sys-and-ui.yaml)", () => {
  it("sys iterates empty with pairs and next", async () => {
    const result = await withSys(FACTS, (vm) =>
      runValue(
        vm,
        "local n = 0 for _ in pairs(sys) do n = n + 1 end return n .. ' ' .. tostring(next(sys)) .. ' ' .. #sys",
      ),
    );
    expect(result).toBe("0 nil 0");
  });

  it("sys takes string keys only", async () => {
    const result = await withSys(FACTS, (vm) =>
      runValue(
        vm,
        `local out = {}
         for _, key in ipairs({ 1, true, 2.5 }) do
           local ok, err = pcall(function() return sys[key] end)
           out[#out + 1] = tostring(ok) .. '|' .. tostring(err)
         end
         local ok, err = pcall(function() sys[1] = 1 end)
         out[#out + 1] = tostring(err)
         return table.concat(out, '\\n')`,
      ),
    );
    expect(result).toBe(
      [
        "false|runtime error: sys fields must be accessed by string key",
        "false|runtime error: sys fields must be accessed by string key",
        "false|runtime error: sys fields must be accessed by string key",
        "runtime error: sys fields must be accessed by string key",
      ].join("\n"),
    );
  });

  it("assigning an existing sys field is refused", async () => {
    const result = await withSys(FACTS, (vm) =>
      runValue(vm, "local ok, err = pcall(function() sys.when = 'now' end) return tostring(err)"),
    );
    expect(result).toBe("runtime error: sys is read-only; cannot set 'when'");
  });

  it("assigning a new sys field is refused and sets nothing", async () => {
    const result = await withSys(FACTS, (vm) =>
      runValue(
        vm,
        `local ok, err = pcall(function() sys.extra = 1 end)
         local ok2, err2 = pcall(function() return sys.extra end)
         return tostring(err) .. '|' .. tostring(err2)`,
      ),
    );
    expect(result).toBe(
      "runtime error: sys is read-only; cannot set 'extra'|runtime error: unknown sys field 'extra'",
    );
  });

  it("getmetatable of sys returns sys is sealed and the seal cannot be replaced", async () => {
    const result = await withSys(FACTS, (vm) =>
      runValue(
        vm,
        "local ok, err = pcall(function() setmetatable(sys, {}) end) return getmetatable(sys) .. '|' .. tostring(ok) .. '|' .. tostring(err)",
      ),
    );
    expect(result).toMatch(/^sys is sealed\|false\|.*cannot change a protected metatable$/);
  });

  it("prompt code cannot reach the facts (attacks)", async () => {
    const result = await withSys(FACTS, (vm) =>
      runValue(
        vm,
        `local found = {}
         local mt = getmetatable(sys)
         found[#found + 1] = type(mt)
         found[#found + 1] = tostring(rawget == nil and debug == nil)
         -- a replaced global cannot change what sys reads
         string = nil
         found[#found + 1] = sys.section_name
         -- reading sys.model caches nothing on failure
         pcall(function() return sys.model end)
         found[#found + 1] = tostring(pcall(function() return sys.model end))
         return table.concat(found, ',')`,
      ),
    );
    expect(result).toBe("string,true,Only,false");
  });

  it("refuses facts it cannot show", async () => {
    await withStateVm(
      (vm) => {
        expect(() => installSys(vm, { ...FACTS, sectionCount: 1.5 })).toThrow(
          "sys.section_count must be a whole number, got 1.5",
        );
        expect(() => installSys(vm, { ...FACTS, index: 0.5 })).toThrow(
          "sys.index must be an integer, got 0.5",
        );
        expect(() => installSys(vm, { ...FACTS, when: 1.5 })).toThrow(RangeError);
      },
      async (vm) => expect(await runValue(vm, "return type(sys)")).toBe("nil"),
    );
  });
});

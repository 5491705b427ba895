import { describe, expect, it } from "vitest";
import { body, lua } from "../test-support/lua-fence";
import { MemoryPort } from "../test-support/memory-port";
import { promptText } from "../test-support/parse";
import { resultText, runTestPrompt } from "../test-support/run-prompt";
import { resolveRunOptions } from "./run-options";

describe("run options", () => {
  it("applies the defaults", () => {
    const resolved = resolveRunOptions({ effects: new MemoryPort() });
    expect(resolved).toMatchObject({
      args: "",
      execution: "run-1",
      seed: 0n,
      start: 946684800000,
      ui: undefined,
      logEvents: undefined,
      luaMemoryBytes: undefined,
      cancelFlagIndex: 0,
    });
  });

  it("refuses options no run can start with", () => {
    const effects = new MemoryPort();
    expect(() => resolveRunOptions({ effects, execution: "a\nb" })).toThrow(
      "the execution name must be one non-empty line",
    );
    expect(() => resolveRunOptions({ effects, seed: -1 })).toThrow(RangeError);
    expect(() => resolveRunOptions({ effects, start: 253402300800000 })).toThrow(RangeError);
    expect(() => resolveRunOptions({ effects, limits: { luaMemoryBytes: 0 } })).toThrow(
      "limits.luaMemoryBytes must be a whole number >= 1, got 0",
    );
    expect(() => resolveRunOptions({ effects, limits: { logEvents: 1.5 } })).toThrow(RangeError);
  });

  it("refuses a stop flag another thread cannot set, or an index outside it", () => {
    const effects = new MemoryPort();
    expect(() => resolveRunOptions({ effects, stopFlag: new Int32Array(1) })).toThrow(
      "stopFlag must be an Int32Array over a SharedArrayBuffer",
    );
    const shared = new Int32Array(new SharedArrayBuffer(8));
    expect(() => resolveRunOptions({ effects, stopFlag: shared, stopFlagIndex: 2 })).toThrow(
      "stopFlagIndex 2 is outside the stop flag array",
    );
    expect(resolveRunOptions({ effects, stopFlag: shared, stopFlagIndex: 1 })).toMatchObject({
      stopFlag: shared,
      stopFlagIndex: 1,
    });
  });

  it("hands the run facts to sys in the H1 pass and every section (06-sys-and-ui)", async () => {
    const run = await runTestPrompt(
      promptText(
        body(
          "# Title Demo",
          lua("var.h1 = sys.section_name .. ' ' .. sys.taskid .. ' ' .. sys.when"),
          "## Alpha",
          lua("assert(sys.section_name == 'Alpha')\nassert(sys.section_count == 2)"),
          "## Beta",
          lua(
            "return var.h1 .. ' | ' .. sys.section_name .. ' ' .. sys.id .. ' of ' .. sys.section_count .. ' ' .. sys.execution .. ' ' .. sys.when",
          ),
        ),
      ),
      { execution: "execute-test", start: Date.UTC(2000, 1, 29, 0, 0, 0, 123) },
    );
    expect(resultText(run)).toBe(
      "Title Demo 0 2000-02-29T00:00:00.123Z | Beta 0.2 of 2 execute-test 2000-02-29T00:00:00.123Z",
    );
  });

  it("installs ui only when the run has a snapshot (host-model)", async () => {
    const text = promptText(
      body(
        "# Host model",
        "## Main",
        lua(
          "if ui then\n  local state = ui()\n  return state.selected_model .. '/' .. tostring(state.workspace_root) .. '/' .. math.type(state.n)\nend\nreturn 'no host state'",
        ),
      ),
    );
    const withUi = await runTestPrompt(text, {
      ui: { selected_model: "m-1", workspace_root: null, n: 3 },
    });
    expect(resultText(withUi)).toBe("m-1/nil/integer");
    expect(resultText(await runTestPrompt(text))).toBe("no host state");
  });

  it("applies the log event quota to each section VM, ending the run as Quota", async () => {
    const text = promptText(
      body(
        "# T",
        "## A",
        lua("log('one')\nlog('two')"),
        "## B",
        lua("log('three')\nlog('four')\nlog('five')"),
      ),
    );
    const run = await runTestPrompt(text, { limits: { logEvents: 2 } });
    expect(run.result).toMatchObject({
      outcome: "failed",
      error: { kind: "Quota", message: "lua log event budget exceeded" },
    });
    expect(run.port.checkpoints()).toEqual(["Lua: one", "Lua: two", "Lua: three", "Lua: four"]);
  });

  it("applies the Lua memory limit to each section VM", async () => {
    const text = promptText(
      body(
        "# T",
        "## A",
        lua(
          "local ok, err = pcall(string.rep, 'x', 4000000)\nreturn tostring(ok) .. ' ' .. tostring(err)",
        ),
      ),
    );
    const run = await runTestPrompt(text, { limits: { luaMemoryBytes: 1024 * 1024 } });
    expect(resultText(run)).toMatch(/^false .*not enough memory/);
  });

  it("ends the run as Lua when Lua runs out of memory and nothing catches it", async () => {
    const text = promptText(
      body("# T", "## A", lua("local s = string.rep('x', 4000000)\nreturn 'unreached'")),
    );
    const run = await runTestPrompt(text, { limits: { luaMemoryBytes: 1024 * 1024 } });
    expect(run.result.outcome).toBe("failed");
    if (run.result.outcome === "failed") {
      expect(run.result.error.kind).toBe("Lua");
      expect(run.result.error.message).toContain("not enough memory");
    }
  });
});

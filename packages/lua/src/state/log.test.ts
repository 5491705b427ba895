import { describe, expect, it } from "vitest";
import { loadLuaVmFactory } from "../vm/factory";
import type { LuaVm } from "../vm/lua-vm";
import {
  checkpointText,
  installLog,
  type LogCheckpoint,
  type LogHandle,
  type LogOptions,
  logByteQuota,
} from "./log";
import { runFailure, runValue } from "./test-support";

const E200 = "é".repeat(200);

/** Runs `blocks` in one fresh VM with log installed; returns the last block's value or failure. */
async function section(
  blocks: readonly string[],
  options: Partial<LogOptions> = {},
): Promise<{ result: unknown; failure?: string; log: LogHandle; texts: string[] }> {
  const factory = await loadLuaVmFactory();
  const vm: LuaVm = factory.create();
  try {
    const log = installLog(vm, { section: "Main", ...options });
    let result: unknown;
    let failure: string | undefined;
    for (const source of blocks) {
      const outcome = await vm.runBlock({ source, chunkName: "line 1" });
      if (!outcome.ok) {
        failure = outcome.message;
        break;
      }
      result = outcome.values[0];
    }
    return { result, failure, log, texts: log.checkpoints.map((c) => checkpointText(c.message)) };
  } finally {
    vm.close();
  }
}

describe("log checkpoints (08-logging.yaml)", () => {
  it("progress records checkpoints in order, attributed to the section whose VM logs", async () => {
    const seen: LogCheckpoint[] = [];
    const onCheckpoint = (c: LogCheckpoint) => seen.push(c);
    const prepare = await section(["log('prepare started')\nlog('prepare finished')"], {
      section: "Prepare",
      onCheckpoint,
    });
    const finish = await section(["log('finish started') return 'tides'"], {
      section: "Finish",
      onCheckpoint,
    });
    expect(finish.result).toBe("tides");
    expect(seen.map((c) => `${c.section}: ${checkpointText(c.message)}`)).toEqual([
      "Prepare: Lua: prepare started",
      "Prepare: Lua: prepare finished",
      "Finish: Lua: finish started",
    ]);
    expect(prepare.log.checkpoints).toEqual([
      { section: "Prepare", message: "prepare started" },
      { section: "Prepare", message: "prepare finished" },
    ]);
  });

  it("log-checkpoints: blocks of one section record in block order; code that never runs logs nothing", async () => {
    const h1 = await section(["log('H1 ran')"], { section: "Log Checkpoints" });
    const prepare = await section(["log('prepare started')", "log('prepare finished')"], {
      section: "Prepare",
    });
    const finish = await section(["log('finish started')\nreturn 'finished'"], {
      section: "Finish",
    });
    expect([...h1.texts, ...prepare.texts, ...finish.texts]).toEqual([
      "Lua: H1 ran",
      "Lua: prepare started",
      "Lua: prepare finished",
      "Lua: finish started",
    ]);
    expect(h1.log.checkpoints[0]?.section).toBe("Log Checkpoints");
  });

  it("log returns nothing", async () => {
    const { result, texts } = await section(["return tostring(select('#', log('x')))"]);
    expect(result).toBe("0");
    expect(texts).toEqual(["Lua: x"]);
  });

  it("onCheckpoint runs at the moment of the call, between the block's other host calls", async () => {
    const order: string[] = [];
    const factory = await loadLuaVmFactory();
    const vm = factory.create();
    try {
      installLog(vm, { section: "Main", onCheckpoint: (c) => order.push(`log ${c.message}`) });
      vm.setGlobal("store_write", async () => {
        order.push("store write");
      });
      await runValue(vm, "log('before write') store_write() log('after write')");
    } finally {
      vm.close();
    }
    expect(order).toEqual(["log before write", "store write", "log after write"]);
  });

  it("a saved reference keeps working in later blocks; print and warn stay nil", async () => {
    const { result, texts } = await section([
      "saved_log = log assert(print == nil) assert(warn == nil)",
      "saved_log('through the saved reference') return 'ok'",
    ]);
    expect(result).toBe("ok");
    expect(texts).toEqual(["Lua: through the saved reference"]);
  });
});

describe("log message rules (08-logging.yaml)", () => {
  it("a number is logged through tostring", async () => {
    const { result, texts } = await section([
      "local n = 3\nlog('items: ' .. tostring(n))\nreturn 'logged'",
    ]);
    expect(result).toBe("logged");
    expect(texts).toEqual(["Lua: items: 3"]);
  });

  it("log with no arguments, or two, is refused", async () => {
    const none = await section(["local ok, err = pcall(log) return tostring(err)"]);
    const two = await section(["local ok, err = pcall(log, 'a', 'b') return tostring(err)"]);
    expect(none.result).toBe("log expects exactly one argument");
    expect(two.result).toBe("log expects exactly one argument");
    expect([...none.texts, ...two.texts]).toEqual([]);
  });

  it("log refuses values that are not strings", async () => {
    const { result, texts } = await section([
      `local out = {}
       for _, value in ipairs({ 5, true, {} }) do
         local ok, err = pcall(log, value)
         out[#out + 1] = tostring(err)
       end
       local ok, err = pcall(log, nil)
       out[#out + 1] = tostring(err)
       return table.concat(out, '|')`,
    ]);
    expect(result).toBe(Array(4).fill("log message must be a UTF-8 string").join("|"));
    expect(texts).toEqual([]);
  });

  it("log refuses a string that is not valid UTF-8", async () => {
    const { result } = await section([
      "local ok, err = pcall(log, string.char(255)) return tostring(err)",
    ]);
    expect(result).toBe("log message must be a UTF-8 string");
  });

  it("a 256-character message of two-byte characters is recorded in full", async () => {
    const { result, texts, log } = await section(["log(string.rep('é', 256)) return 'logged'"]);
    expect(result).toBe("logged");
    expect(texts).toEqual([`Lua: ${"é".repeat(256)}`]);
    expect(log.bytesUsed).toBe(512);
  });

  it("a 257-character message is refused", async () => {
    const { result, texts } = await section([
      "local ok, err = pcall(log, string.rep('é', 257)) return tostring(err)",
    ]);
    expect(result).toBe("log message must be at most 256 characters");
    expect(texts).toEqual([]);
  });

  it("log refuses newlines, control characters, and line separators", async () => {
    const { result, texts } = await section([
      String.raw`local out = {}
       for _, text in ipairs({ 'a\nb', 'a\rb', 'a\tb', 'a\u{2028}b', 'a\u{2029}b' }) do
         local ok, err = pcall(log, text)
         out[#out + 1] = tostring(err)
       end
       return table.concat(out, '|')`,
    ]);
    expect(result).toBe(
      Array(5).fill("log message must not contain newline or control characters").join("|"),
    );
    expect(texts).toEqual([]);
  });

  it("the first failing message rule is reported", async () => {
    const { result } = await section([
      String.raw`local ok1, err1 = pcall(log, string.rep('é', 257) .. '\n')
       local ok2, err2 = pcall(log, string.char(255) .. '\n')
       return tostring(err1) .. '|' .. tostring(err2)`,
    ]);
    expect(result).toBe(
      "log message must be at most 256 characters|log message must be a UTF-8 string",
    );
  });

  it("the event quota is checked before the string type", async () => {
    const { result, texts } = await section(
      [
        `local ok1, err1 = pcall(log, 5)
         local ok2, err2 = pcall(log, 5)
         return tostring(err1) .. '|' .. tostring(err2)`,
      ],
      { quotas: { events: 1 } },
    );
    expect(result).toBe("log message must be a UTF-8 string|lua log event budget exceeded");
    expect(texts).toEqual([]);
  });

  it("a call without exactly one argument spends no quota", async () => {
    const { result, texts, log } = await section(
      [
        `local ok1, err1 = pcall(log)
         local ok2, err2 = pcall(log, 'a', 'b')
         log('ok')
         local ok3, err3 = pcall(log, 'more')
         return tostring(err1) .. '|' .. tostring(err2) .. '|' .. tostring(err3)`,
      ],
      { quotas: { events: 1 } },
    );
    expect(result).toBe(
      "log expects exactly one argument|log expects exactly one argument|lua log event budget exceeded",
    );
    expect(texts).toEqual(["Lua: ok"]);
    expect(log.eventsUsed).toBe(1);
  });
});

describe("log quotas (08-logging.yaml)", () => {
  it("defaults to 1024 events and 262,144 bytes; the byte quota follows the event quota", async () => {
    const { log } = await section(["return 1"]);
    expect([log.eventQuota, log.byteQuota]).toEqual([1024, 262_144]);
    expect(logByteQuota(4)).toBe(1024);
  });

  it("with a quota of one event the second log call fails", async () => {
    const { result, texts } = await section(
      ["log('one')\nlocal ok, err = pcall(log, 'two')\nreturn tostring(err)"],
      { quotas: { events: 1 } },
    );
    expect(result).toBe("lua log event budget exceeded");
    expect(texts).toEqual(["Lua: one"]);
  });

  it("an uncaught event quota refusal ends the block with the refusal, at level 0", async () => {
    const { failure, texts } = await section(["log('one')\nlog('two')\nreturn 'unreached'"], {
      quotas: { events: 1 },
    });
    expect(failure).toBe("lua log event budget exceeded");
    expect(texts).toEqual(["Lua: one"]);
  });

  it("raising the quota text yourself is an ordinary error with a position", async () => {
    const factory = await loadLuaVmFactory();
    const vm = factory.create();
    try {
      installLog(vm, { section: "Main" });
      expect(await runFailure(vm, "error('lua log event budget exceeded')")).toBe(
        '[string "line 1"]:1: lua log event budget exceeded',
      );
    } finally {
      vm.close();
    }
  });

  it("the byte quota stops the third 400-byte message", async () => {
    const { failure, texts, log } = await section(
      [
        `log(string.rep('é', 200))
         log(string.rep('é', 200))
         log(string.rep('é', 200))
         return 'unreached'`,
      ],
      { quotas: { events: 4 } },
    );
    expect(failure).toBe("lua log cumulative byte budget exceeded");
    expect(texts).toEqual([`Lua: ${E200}`, `Lua: ${E200}`]);
    expect([log.eventsUsed, log.bytesUsed]).toEqual([3, 800]);
  });

  it("pcall catches a byte quota refusal; a refused message leaves the quota for a shorter one", async () => {
    const { result, texts, log } = await section(
      [
        `log(string.rep('é', 200))
         log(string.rep('é', 200))
         local ok, err = pcall(log, string.rep('é', 200))
         log('short')
         return tostring(err)`,
      ],
      { quotas: { events: 4 } },
    );
    expect(result).toBe("lua log cumulative byte budget exceeded");
    expect(texts).toEqual([`Lua: ${E200}`, `Lua: ${E200}`, "Lua: short"]);
    expect([log.eventsUsed, log.bytesUsed]).toEqual([4, 805]);
  });

  it("the log quotas span every block of a section", async () => {
    const { result, texts } = await section(
      ["log('first block')", "local ok, err = pcall(log, 'second block')\nreturn tostring(err)"],
      { quotas: { events: 1 } },
    );
    expect(result).toBe("lua log event budget exceeded");
    expect(texts).toEqual(["Lua: first block"]);
  });

  it("the next section starts with full log quotas", async () => {
    const first = await section(["log('first')"], { quotas: { events: 1 } });
    const second = await section(["log('second') return 'both'"], { quotas: { events: 1 } });
    expect(second.result).toBe("both");
    expect([...first.texts, ...second.texts]).toEqual(["Lua: first", "Lua: second"]);
  });

  it("a quota of zero refuses every call; bad quotas are refused", async () => {
    const { result } = await section(["local ok, err = pcall(log, 'x') return tostring(err)"], {
      quotas: { events: 0 },
    });
    expect(result).toBe("lua log event budget exceeded");
    const factory = await loadLuaVmFactory();
    const vm = factory.create();
    try {
      expect(() => installLog(vm, { section: "Main", quotas: { events: -1 } })).toThrow(
        "the log event quota must be a whole number, got -1",
      );
    } finally {
      vm.close();
    }
  });
});

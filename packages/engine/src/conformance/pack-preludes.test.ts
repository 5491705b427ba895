// Every case of /work/shared/conformance/tools/12-pack-preludes.yaml, and the prelude cases of
// /work/shared/conformance/lua/*.yaml that need no model (01-blocks-and-vms,
// 09-asking-the-operator, 11-raising-and-catching). A case's fixture_preludes (and the
// user-input Pack's prelude) become RunCatalog.preludes; the ask tool is answered by a fake
// EffectPort.toolCall with the case's operator answers. Cases that reach a tool through
// tools.call need the `tools` global (tools/install-tools.ts).
import { describe, expect, it } from "vitest";
import {
  catalogWith,
  type PreludeCase,
  preparePreludeHost,
  runPreludeCase,
  USER_INPUT_PRELUDE,
} from "../preludes/test-support";
import { body, lua } from "../test-support/lua-fence";
import { promptText } from "../test-support/parse";
import { resultText, runTestPrompt, type TestRun } from "../test-support/run-prompt";
import { ToolPort } from "../tools/test-support/tool-port";

const USER_INPUT = { "user-input": USER_INPUT_PRELUDE };
const USES_USER_INPUT = "uses:\n  - user-input\n";
const USES_HELPER = "uses: [helper]\n";

/** A one-section prompt `# {title}` / `## Only` with `code` as its block. */
function only(title: string, code: string): string {
  return body(`# ${title}`, "## Only", lua(code));
}

async function result(c: PreludeCase): Promise<string | null> {
  return resultText(await runPreludeCase(c));
}

/** The failed run's error; throws when the run did not fail. */
async function failure(c: PreludeCase): Promise<{ kind: string; message: string }> {
  const run = await runPreludeCase(c);
  if (run.result.outcome !== "failed") {
    throw new Error(`the run did not fail: ${JSON.stringify(run.result)}`);
  }
  return run.result.error;
}

describe("tools/12-pack-preludes", () => {
  it("ask-helper calls the prelude's input.ask", async () => {
    const c = { body: only("Ask helper", "return input.ask()"), preludes: USER_INPUT };
    expect(await result({ ...c, frontmatter: USES_USER_INPUT, operator: ["one"] })).toBe("one");
  });

  it("input.ask with an argument raises the prelude's error", async () => {
    const code =
      "local ok, err = pcall(input.ask, 'why?')\nreturn tostring(ok) .. '|' .. tostring(err)";
    const text = await result({ body: only("Ask args", code), preludes: USER_INPUT });
    expect(text).toMatch(/^false\|[\s\S]*input\.ask takes no arguments/);
  });

  it("ask-twice reaches the prelude in two sections and the table is sealed", async () => {
    const prompt = body(
      "# Ask twice",
      "## First",
      lua("input.ask()"),
      "## Second",
      lua(
        "local sealed = not pcall(function() input.ask = nil end)\nreturn input.ask() .. '|' .. tostring(sealed)",
      ),
    );
    const run = await runPreludeCase({
      body: prompt,
      preludes: USER_INPUT,
      operator: ["one", "two"],
    });
    expect(resultText(run)).toBe("two|true");
    expect(run.port.toolRequests.map((call) => [call.tool, call.origin.section])).toEqual([
      ["user-input/ask", "First"],
      ["user-input/ask", "Second"],
    ]);
  });

  it("an undeclared Pack's prelude does not run", async () => {
    expect(await result({ body: only("No prelude", "return type(input)"), preludes: {} })).toBe(
      "nil",
    );
  });

  it("a prelude's varargs hold its own Pack id", async () => {
    const helper = "local pack = ...\nwho = {}\nfunction who.pack() return pack end\n";
    const c = { body: only("Prelude pack id", "return who.pack()"), preludes: { helper } };
    expect(await result({ ...c, frontmatter: USES_HELPER })).toBe("helper");
  });

  it("prelude locals and return values add no globals", async () => {
    const helper =
      "local helper = 1\nlocal function unused() return helper end\nreturn { helper = helper }\n";
    const code = "return type(helper) .. '|' .. type(unused)";
    expect(await result({ body: only("Prelude locals", code), preludes: { helper } })).toBe(
      "nil|nil",
    );
  });

  it("prelude globals may share names with wire names and role labels", async () => {
    const text = await result({
      body: only("Prelude shared names", "return web_fetch .. '|' .. writer"),
      frontmatter: `${USES_HELPER}models:\n  writer: {}\n`,
      preludes: { helper: "web_fetch = 'mine'\nwriter = 'mine'\n" },
    });
    expect(text).toBe("mine|mine");
  });

  it("a sealed prelude table hides its metatable and fields", async () => {
    const code = [
      "local n = 0",
      "for _ in pairs(input) do n = n + 1 end",
      "return getmetatable(input) .. '|' .. n .. '|' .. tostring(pcall(setmetatable, input, {}))",
    ].join("\n");
    expect(await result({ body: only("Sealed input", code), preludes: USER_INPUT })).toBe(
      "input is sealed|0|false",
    );
  });

  it("tables nested in a prelude table are not sealed", async () => {
    const code = "cfg.inner.x = 1\nreturn tostring(cfg.inner.x)";
    const preludes = { helper: "cfg = { inner = {} }\n" };
    expect(await result({ body: only("Nested unsealed", code), preludes })).toBe("1");
  });

  it("a table a Pack function returns keeps its metatable", async () => {
    const helper = [
      "maker = {}",
      "function maker.make()",
      "  return setmetatable({}, { __index = function(_, k) return 'dyn ' .. k end })",
      "end",
    ].join("\n");
    const c = { body: only("Returned metatable", "return maker.make().x"), preludes: { helper } };
    expect(await result(c)).toBe("dyn x");
  });

  it("writing a sealed table's field names the global, the Pack, and the key", async () => {
    const code =
      "local ok, err = pcall(function() input.extra = 1 end)\nreturn tostring(ok) .. '|' .. tostring(err)";
    const text = await result({ body: only("Read only input", code), preludes: USER_INPUT });
    expect(text).toMatch(
      /^false\|[\s\S]*input is read-only: Pack `user-input` defines it; cannot set 'extra'/,
    );
    expect(text).toBe(
      "false|runtime error: input is read-only: Pack `user-input` defines it; cannot set 'extra'",
    );
  });

  it("integer and boolean keys show as the number and the type name", async () => {
    const code = [
      "local _, e1 = pcall(function() input[1] = 1 end)",
      "local _, e2 = pcall(function() input[true] = 1 end)",
      "return tostring(e1) .. '\\n' .. tostring(e2) .. '\\n' .. type(input.ask)",
    ].join("\n");
    const text = await result({ body: only("Read only keys", code), preludes: USER_INPUT });
    expect(text).toMatch(
      /^[^\n]*input is read-only: Pack `user-input` defines it; cannot set '1'[\s\S]*\n[^\n]*input is read-only: Pack `user-input` defines it; cannot set 'boolean'[\s\S]*\nfunction$/,
    );
  });

  it("a prelude function cannot see ui, argv, sys, or models", async () => {
    const helper = [
      "probe = {}",
      "function probe.types()",
      "  return type(ui) .. ',' .. type(argv) .. ',' .. type(sys) .. ',' .. type(models)",
      "end",
    ].join("\n");
    const text = await result({
      body: only("Prelude sees", "return probe.types()"),
      preludes: { helper },
      options: { ui: { selected_model: "m-1" } },
    });
    expect(text).toBe("nil,nil,nil,nil");
  });

  it("a helper does not see another prelude's globals", async () => {
    const text = await result({
      body: only("Prelude isolation", "return beta_tools.peek() .. '|' .. alpha_tools.value()"),
      frontmatter: "uses: [alpha, beta]\n",
      preludes: {
        alpha: "alpha_tools = {}\nfunction alpha_tools.value() return 'a' end\n",
        beta: "beta_tools = {}\nfunction beta_tools.peek() return type(alpha_tools) end\n",
      },
    });
    expect(text).toBe("nil|a");
  });

  it("a helper writes and reads the store", async () => {
    const helper = [
      "notes = {}",
      "function notes.keep()",
      "  store.write('notes.md', 'kept')",
      "  return store.read('notes.md')",
      "end",
    ].join("\n");
    const run = await runPreludeCase({
      body: only("Prelude store", "return notes.keep()"),
      preludes: { helper },
    });
    expect(resultText(run)).toBe("kept");
    expect(await run.port.files()).toEqual({ "notes.md": "kept" });
    expect(run.port.requests.map((r) => r.operation.op)).toEqual(["write", "read"]);
  });

  it("var is a live read-only view inside a prelude", async () => {
    const helper = [
      "probe = {}",
      "function probe.mode() return var.mode end",
      "function probe.set_mode() var.mode = 'slow' end",
      "function probe.meta() return getmetatable(var) end",
    ].join("\n");
    const code = [
      "var.mode = 'fast'",
      "local seen = probe.mode()",
      "local ok, err = pcall(probe.set_mode)",
      "return seen .. '|' .. tostring(ok) .. '|' .. tostring(err) .. '|' .. var.mode .. '|' .. probe.meta()",
    ].join("\n");
    const text = await result({ body: only("Prelude var", code), preludes: { helper } });
    expect(text).toMatch(
      /^fast\|false\|[\s\S]*var is read-only inside a Pack prelude; cannot set 'mode'[\s\S]*\|fast\|var is read-only$/,
    );
  });

  it("integer and float keys in var name the integer and the type", async () => {
    const helper = [
      "probe = {}",
      "function probe.set_int() var[1] = 1 end",
      "function probe.set_float() var[2.5] = 1 end",
    ].join("\n");
    const code = [
      "local _, e1 = pcall(probe.set_int)",
      "local _, e2 = pcall(probe.set_float)",
      "return tostring(e1) .. '\\n' .. tostring(e2)",
    ].join("\n");
    const text = await result({ body: only("Prelude var keys", code), preludes: { helper } });
    expect(text).toBe(
      [
        "runtime error: var is read-only inside a Pack prelude; cannot set '1'",
        "runtime error: var is read-only inside a Pack prelude; cannot set 'number'",
      ].join("\n"),
    );
  });

  it("nested var writes name the dotted path and leave var unchanged", async () => {
    const helper = [
      "probe = {}",
      "function probe.set_cfg() var.cfg.mode = 'slow' end",
      "function probe.set_list() var.cfg.list[1].n = 2 end",
    ].join("\n");
    const code = [
      "var.cfg = { mode = 'fast', list = { { n = 1 } } }",
      "local _, e1 = pcall(probe.set_cfg)",
      "local _, e2 = pcall(probe.set_list)",
      "return tostring(e1) .. '\\n' .. tostring(e2) .. '\\n' .. var.cfg.mode .. '|' .. var.cfg.list[1].n",
    ].join("\n");
    const text = await result({ body: only("Prelude var nested", code), preludes: { helper } });
    expect(text).toMatch(
      /^(?=[^\n]*var\.cfg is read-only)[^\n]*'mode'[^\n]*\n(?=[^\n]*var\.cfg\.list\[1\] is read-only)[^\n]*'n'[\s\S]*\nfast\|1$/,
    );
  });

  it("a prelude that raises while loading fails the run as Lua", async () => {
    const error = await failure({
      body: only("Prelude raises", "return 'unreachable'"),
      preludes: { helper: "local x = 1\nerror('prelude boom')\n" },
    });
    expect(error.kind).toBe("Lua");
    expect(error.message).toMatch(
      /^Pack `helper`: its prelude failed to load: (?=[\s\S]*prelude boom)(?=[\s\S]*A prelude only defines functions; it must not call tools while loading\.)(?=[\s\S]*pack:helper:2:)/,
    );
    expect(error.message).toBe(
      [
        "Pack `helper`: its prelude failed to load: pack:helper:2: prelude boom. A prelude only defines functions; it must not call tools while loading.",
        "stack traceback:",
        "\t[C]: in function 'error'",
        "\tpack:helper:2: in main chunk",
      ].join("\n"),
    );
  });

  it("a prelude that calls a tool while loading fails the run as Lua", async () => {
    const c: PreludeCase = {
      body: only("Prelude calls tool", "return 'unreachable'"),
      preludes: {
        helper: "local page = tools.call('web/fetch', { url = 'https://www.lua.org/' })\n",
      },
      pages: { "https://www.lua.org/": "Lua: the programming language" },
    };
    const run = await runPreludeCase(c);
    expect(run.result.outcome).toBe("failed");
    if (run.result.outcome !== "failed") return;
    expect(run.result.error.kind).toBe("Lua");
    expect(run.result.error.message).toMatch(
      /^Pack `helper`: its prelude failed to load: [\s\S]*A prelude only defines functions; it must not call tools while loading\./,
    );
    // The call could not suspend, so no tool effect went out.
    expect(run.port.toolRequests).toEqual([]);
  });

  it("a prelude that calls require fails the run as Lua", async () => {
    const prompt = body(
      "# Prelude require",
      "## Only",
      lua("return 'unreachable'"),
      "## lib",
      lua("shared = 1"),
    );
    const error = await failure({
      body: prompt,
      preludes: { helper: "local lib = require('## lib')\n" },
    });
    expect(error.kind).toBe("Lua");
    expect(error.message).toMatch(
      /^Pack `helper`: its prelude failed to load: [\s\S]*attempt to call a nil value \(global 'require'\)/,
    );
  });

  it("a prelude that defines tools is refused as an Engine global", async () => {
    const error = await failure({
      body: only("Prelude tools", "return 'unreachable'"),
      preludes: { helper: "tools = {}\n" },
    });
    expect(error).toMatchObject({
      kind: "Lua",
      message:
        "Pack `helper`: its prelude defines the global `tools`, which is reserved as an Engine global",
    });
  });

  it("colliding globals are checked in sorted order", async () => {
    const error = await failure({
      body: only("Prelude sorted", "return 'unreachable'"),
      preludes: { helper: "tools = {}\nstore = {}\n" },
    });
    expect(error).toMatchObject({
      kind: "Lua",
      message:
        "Pack `helper`: its prelude defines the global `store`, which is reserved as an Engine global",
    });
  });

  it("a prelude that defines require is refused", async () => {
    const error = await failure({
      body: only("Prelude define require", "return 'unreachable'"),
      preludes: { helper: "function require() return 'mine' end\n" },
    });
    expect(error.kind).toBe("Lua");
    expect(error.message).toMatch(
      /Pack `helper`: its prelude defines the global `require`[\s\S]*which is reserved as an Engine global/,
    );
  });

  it("a prelude that defines argv is refused as reserved", async () => {
    const error = await failure({
      body: only("Prelude argv", "return 'unreachable'"),
      preludes: { helper: "argv = {}\n" },
    });
    expect(error).toMatchObject({
      kind: "Lua",
      message:
        "Pack `helper`: its prelude defines the global `argv`, which is reserved as an Engine global",
    });
  });

  it("a prelude that defines ui is refused even where ui is unbound", async () => {
    const error = await failure({
      body: only("Prelude ui", "return 'unreachable'"),
      preludes: { helper: "ui = {}\n" },
    });
    expect(error.kind).toBe("Lua");
    expect(error.message).toMatch(/Pack `helper`[\s\S]*`ui`/);
  });
});

describe("lua/01-blocks-and-vms (preludes)", () => {
  it("ask-check reads the globals a Pack prelude adds", async () => {
    const code = "return type(input.ask) .. ',' .. type(store.read) .. ',' .. type(tools.call)";
    const text = await result({ body: body("# Ask check", lua(code)), preludes: USER_INPUT });
    expect(text).toBe("function,function,function");
  });

  it("assigning a field of a prelude table is refused", async () => {
    const code =
      "local ok, err = pcall(function() input.extra = 1 end)\nreturn tostring(ok) .. '|' .. tostring(err)";
    const text = await result({
      body: body("# Prelude read-only", "## Main", lua(code)),
      preludes: USER_INPUT,
    });
    expect(text).toMatch(
      /^false\|.*input is read-only: Pack `user-input` defines it; cannot set 'extra'$/,
    );
  });

  it("a prelude table is sealed and iterates empty", async () => {
    const code =
      "local n = 0\nfor _ in pairs(input) do n = n + 1 end\nreturn getmetatable(input) .. '|' .. n";
    const text = await result({
      body: body("# Prelude sealed", "## Main", lua(code)),
      preludes: USER_INPUT,
    });
    expect(text).toBe("input is sealed|0");
  });
});

describe("lua/09-asking-the-operator (no model)", () => {
  const askOnce = body("# Ask once", "## Main", lua("local text = input.ask()\nreturn text"));

  it("ask-once returns the operator's next message", async () => {
    expect(await result({ body: askOnce, preludes: USER_INPUT, operator: ["kept"] })).toBe("kept");
  });

  it("input.ask returns the operator's text byte for byte", async () => {
    const answer = "  two\n\tthree  ";
    expect(await result({ body: askOnce, preludes: USER_INPUT, operator: [answer] })).toBe(answer);
  });

  it("user-input can be declared in flow style", async () => {
    const c = { body: body("# Flow uses", "## Main", lua("return type(input.ask)")) };
    expect(await result({ ...c, frontmatter: "uses: [user-input]\n", preludes: USER_INPUT })).toBe(
      "function",
    );
  });

  it("runvil/user-input declares the same Pack", async () => {
    const code = "return type(input.ask) .. '|' .. tools.get('user-input/ask').id";
    const text = await result({
      body: body("# Qualified uses", "## Main", lua(code)),
      frontmatter: "uses: [runvil/user-input]\n",
      preludes: USER_INPUT,
    });
    expect(text).toBe("function|user-input/ask");
  });

  it("writing input.ask is refused", async () => {
    const code =
      "local ok, err = pcall(function() input.ask = nil end)\nreturn tostring(ok) .. '|' .. tostring(err)";
    const text = await result({
      body: body("# Input read-only", "## Main", lua(code)),
      preludes: USER_INPUT,
    });
    expect(text).toMatch(
      /^false\|.*input is read-only: Pack `user-input` defines it; cannot set 'ask'$/,
    );
  });

  it("an uncaught input.ask without user-input declared ends the run as Lua", async () => {
    const error = await failure({
      body: body("# Undeclared ask", "## Main", lua("return input.ask()")),
      preludes: {},
    });
    expect(error.kind).toBe("Lua");
    expect(error.message).toContain("attempt to index a nil value (global 'input')");
  });

  it("input.ask with an argument is refused", async () => {
    const code =
      "local ok, err = pcall(input.ask, 'What colour?')\nreturn tostring(ok) .. '|' .. tostring(err)";
    const text = await result({
      body: body("# Ask argument", "## Main", lua(code)),
      preludes: USER_INPUT,
    });
    expect(text).toMatch(/^false\|.*input\.ask takes no arguments$/);
  });

  it("input.ask with an explicit nil is refused", async () => {
    const code =
      "local ok, err = pcall(input.ask, nil)\nreturn tostring(ok) .. '|' .. tostring(err)";
    const text = await result({
      body: body("# Ask nil", "## Main", lua(code)),
      preludes: USER_INPUT,
    });
    expect(text).toMatch(/^false\|.*input\.ask takes no arguments$/);
  });

  it("the section's Lua state survives an input.ask wait", async () => {
    const code =
      "local before = 41\nlocal text = input.ask()\nreturn tostring(before) .. ' ' .. text";
    const text = await result({
      body: body("# Ask once", "## Main", lua(code)),
      preludes: USER_INPUT,
      operator: ["kept"],
    });
    expect(text).toBe("41 kept");
  });

  it("cancelling the run while input.ask waits stops it", async () => {
    const code = "local text = input.ask()\nstore.write('after.txt', text)\nreturn text";
    const run = await cancelledWhileAsking(body("# Ask cancelled", "## Main", lua(code)));
    expect(run.result.outcome).toBe("cancelled");
    expect(await run.port.files()).toEqual({});
  });

  it("tools.call on the ask tool returns the operator's text", async () => {
    const c = { body: body("# Ask once", "## Main", lua("return tools.call('user-input/ask')")) };
    expect(await result({ ...c, preludes: USER_INPUT, operator: ["kept"] })).toBe("kept");
  });

  it("tools.call with the ask tool object returns the operator's text", async () => {
    const code = "return tools.call(tools.get('user-input/ask'))";
    const c = { body: body("# Ask object", "## Main", lua(code)) };
    expect(await result({ ...c, preludes: USER_INPUT, operator: ["kept"] })).toBe("kept");
  });

  it("the ask tool reads back its id and description", async () => {
    const code = "local ask = tools.get('user-input/ask')\nreturn ask.id .. '|' .. ask.description";
    const text = await result({
      body: body("# Ask tool", "## Main", lua(code)),
      preludes: USER_INPUT,
    });
    expect(text).toMatch(
      /^user-input\/ask\|Wait for the operator's next message and return its text\.?$/,
    );
  });

  it("input.ask is reported as a trusted call to user-input/ask", async () => {
    const run = await runPreludeCase({ body: askOnce, preludes: USER_INPUT, operator: ["kept"] });
    expect(resultText(run)).toBe("kept");
    expect(
      run.port.toolRequests.map((call) => [call.tool, call.name, call.caller, call.callId]),
    ).toEqual([["user-input/ask", "user-input_ask", "script", ""]]);
    expect(run.port.events).toContainEqual(
      expect.objectContaining({
        type: "tool_result",
        alias: "user-input_ask",
        tool: "user-input/ask",
        trusted: true,
      }),
    );
  });

  const askSafely = [
    "local ok, result = pcall(input.ask)",
    "if ok then",
    "  return result",
    "end",
    "return result.kind .. ': ' .. tostring(result)",
  ].join("\n");

  it("ask-safely catches a failed ask", async () => {
    const text = await result({
      body: body("# Ask safely", "## Main", lua(askSafely)),
      preludes: USER_INPUT,
      operator: [{ fail: "the operator's window closed" }],
    });
    expect(text).toBe("tool: tool call failure: the operator's window closed");
  });

  it("a failed ask's message field matches its tostring", async () => {
    const code =
      "local ok, result = pcall(input.ask)\nreturn tostring(result.message == tostring(result)) .. '|' .. result.message";
    const text = await result({
      body: body("# Ask message", "## Main", lua(code)),
      preludes: USER_INPUT,
      operator: [{ fail: "the operator's window closed" }],
    });
    expect(text).toBe("true|tool call failure: the operator's window closed");
  });

  it("an uncaught failed ask ends the run as Tool", async () => {
    const error = await failure({
      body: askOnce,
      preludes: USER_INPUT,
      operator: [{ fail: "the operator's window closed" }],
    });
    expect(error.kind).toBe("Tool");
    expect(error.message).toContain("the operator's window closed");
  });
});

describe("lua/11-raising-and-catching (preludes)", () => {
  it("a pcall retry loop cannot swallow cancellation", async () => {
    const code = "while true do\n  local ok = pcall(input.ask)\nend";
    const run = await cancelledWhileAsking(body("# Retry cancelled", "## Main", lua(code)));
    expect(run.result.outcome).toBe("cancelled");
  });

  it("an xpcall handler does not run under cancellation", async () => {
    const code =
      "local ok = xpcall(input.ask, function(e) while true do end end)\nreturn 'unreached'";
    const run = await cancelledWhileAsking(body("# Handler cancelled", "## Main", lua(code)));
    expect(run.result.outcome).toBe("cancelled");
  });
});

/**
 * Runs `prompt` with user-input declared and an operator who never answers, cancelling the run
 * (its AbortSignal) as soon as the ask tool call arrives: the case's `cancel_after_ms` without
 * a clock.
 */
async function cancelledWhileAsking(prompt: string): Promise<TestRun & { port: ToolPort }> {
  const controller = new AbortController();
  const prepared = await preparePreludeHost({ operator: [{ hold: true }] });
  const port = new ToolPort(prepared);
  const toolCall = port.toolCall.bind(port);
  port.toolCall = (request) => {
    const answer = toolCall(request);
    queueMicrotask(() => controller.abort());
    return answer;
  };
  const run = await runTestPrompt(promptText(prompt, USES_USER_INPUT), {
    catalog: catalogWith(prepared, USER_INPUT),
    port,
    signal: controller.signal,
  });
  return { ...run, port };
}

import { formatEventLine } from "@runvil/protocol";
import { describe, expect, it } from "vitest";
import { failureOf } from "../test-support/failure";
import { body, lua } from "../test-support/lua-fence";
import { promptText } from "../test-support/parse";
import { resultText, runTestPrompt } from "../test-support/run-prompt";

const run = (code: string, files: Record<string, string> = {}) =>
  runTestPrompt(promptText(body("# T", "## Keep", lua(code))), { files });

describe("the store global", () => {
  it("performs every operation through the EffectPort", async () => {
    const r = await run(
      [
        "store.write('a.md', 'one')",
        "store.append('a.md', ' two')",
        "store.edit('a.md', 'two', '2')",
        "store.write('dir/b.md', 'b')",
        "local listed = table.concat(store.list(), ',')",
        "local globbed = table.concat(store.glob('dir/*'), ',')",
        "store.delete('dir/b.md')",
        "return store.read('a.md') .. '|' .. listed .. '|' .. globbed .. '|' .. tostring(store.exists('dir/b.md'))",
      ].join("\n"),
    );
    expect(resultText(r)).toBe("one 2|a.md,dir/b.md|dir/b.md|false");
    expect(r.port.requests.map((q) => [q.effect, q.operation.op])).toEqual([
      ["0.1/1", "write"],
      ["0.1/2", "append"],
      ["0.1/3", "edit"],
      ["0.1/4", "write"],
      ["0.1/5", "list"],
      ["0.1/6", "glob"],
      ["0.1/7", "delete"],
      ["0.1/8", "read"],
      ["0.1/9", "exists"],
    ]);
    expect(r.port.requests[0]?.origin).toEqual({
      execution: "run-1",
      chain: "0",
      entry: "0.1",
      section: "Keep",
      task: "0",
    });
  });

  it("raises store failures as store error values with their fields (careful-read)", async () => {
    const code = [
      "local ok, result = pcall(store.read, 'note.md')",
      "if not ok then",
      "  if result.kind == 'store' and result.reason == 'not_found' then",
      "    return 'no note yet ' .. result.path",
      "  end",
      "  error(result)",
      "end",
      "return result",
    ].join("\n");
    expect(resultText(await run(code))).toBe("no note yet note.md");
    expect(resultText(await run(code, { "note.md": "kept" }))).toBe("kept");
  });

  it("carries count on an anchor failure", async () => {
    const r = await run(
      "local ok, e = pcall(store.edit, 'a.md', 'x', 'y')\nreturn e.kind .. ' ' .. e.reason .. ' ' .. e.count .. ' ' .. math.type(e.count)",
      { "a.md": "x x" },
    );
    expect(resultText(r)).toBe("store anchor_not_unique 2 integer");
  });

  it("ends the run as Vfs when a store failure is not caught, also in the H1 pass", async () => {
    const walked = failureOf(await run("return store.read('missing.md')"));
    expect(walked).toMatchObject({
      kind: "Vfs",
      message: "missing.md: not found",
      value: { kind: "store", fields: { reason: "not_found", path: "missing.md" } },
    });
    const h1 = await runTestPrompt(
      promptText(body("# T", lua("store.read('missing.md')"), "## A", lua("return 'x'"))),
    );
    expect(failureOf(h1).kind).toBe("Vfs");
  });

  it("checks argument types as lua errors before any effect", async () => {
    const r = await run(
      "local _, a = pcall(store.write, 123, 'x')\nlocal _, b = pcall(store.write, 'p', 2.5)\nreturn a.kind .. ':' .. tostring(a) .. '|' .. tostring(b)",
    );
    expect(resultText(r)).toBe(
      "lua:path must be a string, got integer|contents must be a string, got number",
    );
    expect(r.port.requests).toHaveLength(0);
  });

  it("reports each operation between the block's chunk events, in program order with log", async () => {
    const r = await run(
      "log('before write')\nstore.write('state.txt', 'value')\nlog('after write')",
    );
    expect(
      r.port.events
        .filter((e) =>
          ["chunk_started", "lua_checkpoint", "store_op", "chunk_succeeded"].includes(e.type),
        )
        .map((e) => (e.type === "lua_checkpoint" ? e.message : e.type)),
    ).toEqual(["chunk_started", "before write", "store_op", "after write", "chunk_succeeded"]);
    expect(r.port.events.find((e) => e.type === "store_op")).toMatchObject({
      op: "write",
      path: "state.txt",
      ok: true,
      entry: "0.1",
      section: "Keep",
    });
  });

  it("reports what each operation named and how it ended, never contents, in the line's order", async () => {
    const r = await run(
      [
        "store.write('a.md', 'secret')",
        "store.read('a.md')",
        "store.list()",
        "store.list('dir')",
        "store.glob('*.md')",
        "pcall(store.read, 'missing.md')",
      ].join("\n"),
    );
    const lines = r.port.events
      .filter((e) => e.type === "store_op")
      .map((e) => formatEventLine(e).replace(/^.*"section":"Keep",/, "{"));
    expect(lines).toEqual([
      '{"op":"write","path":"a.md","ok":true}\n',
      '{"op":"read","path":"a.md","ok":true}\n',
      '{"op":"list","ok":true}\n',
      '{"op":"list","prefix":"dir","ok":true}\n',
      '{"op":"glob","pattern":"*.md","ok":true}\n',
      '{"op":"read","path":"missing.md","ok":false,"reason":"not_found"}\n',
    ]);
  });

  it("hands bytes that are not UTF-8 to the store, which reports them with valid_up_to", async () => {
    const r = await run(
      "local ok, e = pcall(store.write, 'bin.txt', 'ab' .. string.char(255))\nreturn e.reason .. ' ' .. e.valid_up_to .. ' ' .. math.type(e.valid_up_to)",
    );
    expect(resultText(r)).toBe("invalid_utf8 2 integer");
    const op = r.port.requests[0]?.operation;
    expect(op?.op === "write" && op.contents instanceof Uint8Array).toBe(true);
  });
});

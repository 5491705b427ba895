import { describe, expect, it } from "vitest";
import { runPreludeCase } from "../preludes/test-support";
import { failureOf, headline } from "../test-support/failure";
import { body, lua } from "../test-support/lua-fence";
import { promptText } from "../test-support/parse";
import { resultText, runTestPrompt } from "../test-support/run-prompt";

const run = (...parts: string[]) => runTestPrompt(promptText(body(...parts)));

/** The result of a prompt whose `## Main` runs `code`, followed by `sections`. */
async function main(code: string, ...sections: string[]): Promise<string | null> {
  return resultText(await run("# T", "## Main", lua(code), ...sections));
}

/** `tostring` of what each call in `calls` raised (`ok` when it did not raise), joined by `|`. */
function caught(...calls: string[]): string {
  const lines = calls.map(
    (c, i) => `local ok${i}, e${i} = pcall(function() return ${c} end)
out[#out + 1] = ok${i} and 'ok' or tostring(e${i})`,
  );
  return `local out = {}\n${lines.join("\n")}\nreturn table.concat(out, '|')`;
}

describe("prompt.section", () => {
  it("returns the section's own prose, its segments joined by one blank line, as written", async () => {
    const text = await main(
      "return prompt.section('## Style')",
      "## Style",
      "Be *brief*.\n\n- plain lists stay\n\n```md\n# a fence stays\n```",
      lua("x = 1"),
      "After the block.",
      lua("y = 2"),
      "### Child",
      "A subsection is not part of it.",
    );
    expect(text).toBe(
      "Be *brief*.\n\n- plain lists stay\n\n```md\n# a fence stays\n```\n\nAfter the block.",
    );
  });

  it("gives '' for a section with no prose", async () => {
    expect(
      await main("return '[' .. prompt.section('## Empty') .. ']'", "## Empty", lua("x = 1")),
    ).toBe("[]");
  });

  it("renders placeholders with the reading VM's var, sys and globals, at each read", async () => {
    expect(
      await main(
        "var.topic = 'birds'\nvar.n = 2\nmood = 'calm'\nlocal a = prompt.section('## Style')\nvar.topic = 'fish'\nreturn a .. ' / ' .. prompt.section('## Style')",
        "## Style",
        "{{ var.topic }} in {{ sys.section_name }}, {{ mood }}, {{ var.n }}",
      ),
    ).toBe("birds in Main, calm, 2 / fish in Main, calm, 2");
  });

  it("returns the text unrendered with raw = true, so nothing can fail to render", async () => {
    expect(
      await main(
        "return prompt.section('## Style', { raw = true })",
        "## Style",
        "Hi {{ var.who }} {{ 1 + 1 }}",
      ),
    ).toBe("Hi {{ var.who }} {{ 1 + 1 }}");
    expect(
      await main(
        "var.who = 'you'\nreturn prompt.section('## Style', { raw = false }) .. '|' .. prompt.section('## Style', {})",
        "## Style",
        "Hi {{ var.who }} {{ 1 + 1 }}",
      ),
    ).toBe("Hi you {{ 1 + 1 }}|Hi you {{ 1 + 1 }}");
  });
});

describe("prompt.list", () => {
  it("returns a fresh marked list of every root-level list's items, in order", async () => {
    const text = await main(
      `local a, b = prompt.list('## Topics'), prompt.list('## Topics')
a[1] = 'changed'
return json.encode(b) .. '|' .. #b .. '|' .. tostring(a == b) .. '|' .. json.encode(json.decode(json.encode(a)))`,
      "## Topics",
      "Pick from these:\n\n- alpha\n- beta *bold*\n  - nested stays\n\n1. gamma\n2)\n\n> - quoted is not read",
      lua("x = 1"),
      "* delta",
    );
    expect(text).toBe(
      '["alpha","beta *bold*\\n- nested stays","gamma","","delta"]|5|false|["changed","beta *bold*\\n- nested stays","gamma","","delta"]',
    );
  });

  it("marks the list even for one item, so json.encode writes an array", async () => {
    expect(await main("return json.encode(prompt.list('## One'))", "## One", "- only")).toBe(
      '["only"]',
    );
  });

  it("renders item by item, and raw = true leaves them as written", async () => {
    expect(
      await main(
        "var.a = 'A'\nreturn table.concat(prompt.list('## L'), ',') .. '|' .. table.concat(prompt.list('## L', { raw = true }), ',')",
        "## L",
        "- {{ var.a }}\n- {{ sys.section_name }}",
      ),
    ).toBe("A,Main|{{ var.a }},{{ sys.section_name }}");
  });

  it("refuses a section with no list", async () => {
    expect(
      await main(
        caught("prompt.list('## Prose')", "prompt.list('##   Quoted')"),
        "## Prose",
        "Only prose, with a fence:\n\n```md\n- not a list\n```",
        "## Quoted",
        "> - quoted",
      ),
    ).toBe(
      "prompt.list: section `## Prose` has no list; it reads the items of a Markdown list in the section's prose|" +
        "prompt.list: section `## Quoted` has no list; it reads the items of a Markdown list in the section's prose",
    );
  });
});

describe("targets", () => {
  it("resolve like call: trimmed, children first, then outward, then the top level", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua(
        "return prompt.section('  ### Notes  ') .. '|' .. prompt.section('## Other') .. '|' .. call('### Inner')",
      ),
      "### Notes",
      "main's notes",
      "### Inner",
      lua("return prompt.section('### Notes') .. '+' .. prompt.section('#### Deep')"),
      "#### Deep",
      "deep text",
      "## Other",
      "other text",
      "### Notes",
      "other's notes",
    );
    expect(resultText(r)).toBe("main's notes|other text|main's notes+deep text");
  });

  it("refuse a non-string, a hidden, a missing target and the H1 title", async () => {
    expect(
      await main(
        caught(
          "prompt.section(42)",
          "prompt.list()",
          "prompt.section('### Hidden')",
          "prompt.list('## Missing')",
          "prompt.section('# T')",
          "prompt.section('Main')",
        ),
        "## Other",
        "### Hidden",
        "- hidden item",
      ),
    ).toBe(
      [
        "section target must be a string",
        "section target must be a string",
        "section heading `### Hidden` not found",
        "section heading `## Missing` not found",
        "section heading `# T` not found",
        "section heading `Main` not found",
      ].join("|"),
    );
  });

  it("resolve from the H1 pass at the top level", async () => {
    const r = await run(
      "# T",
      lua("var.intro = prompt.section('## Intro')\nvar.items = prompt.list('## Intro')"),
      "## Main",
      lua("return var.intro .. '|' .. json.encode(var.items)"),
      "## Intro",
      "Read this: {{ sys.section_name }}\n\n- one",
    );
    expect(resultText(r)).toBe('Read this: T\n\n- one|["one"]');
  });

  it("resolve from the requiring section for a library's code", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua("require '## lib'\nreturn read_notes()"),
      "### Notes",
      "main's notes in {{ sys.section_name }}",
      "## lib",
      lua("function read_notes() return prompt.section('### Notes') end"),
    );
    expect(resultText(r)).toBe("main's notes in Main");
  });
});

describe("argument and option errors", () => {
  it("refuse more than two arguments, an explicit trailing nil included", async () => {
    expect(
      await main(
        caught(
          "prompt.section('## S', nil, nil)",
          "prompt.list('## S', {}, 3)",
          "prompt.section('## S', nil)",
        ),
        "## S",
        "- s",
      ),
    ).toBe("prompt.section takes (section, options?)|prompt.list takes (section, options?)|ok");
  });

  it("refuse options that are not a table, naming integers and floats apart", async () => {
    expect(
      await main(
        caught(
          "prompt.section('## S', 3)",
          "prompt.list('## S', 2.5)",
          "prompt.section('## S', 'raw')",
          "prompt.list('## S', true)",
        ),
        "## S",
        "- s",
      ),
    ).toBe(
      [
        "prompt.section options must be a table, got integer",
        "prompt.list options must be a table, got number",
        "prompt.section options must be a table, got string",
        "prompt.list options must be a table, got boolean",
      ].join("|"),
    );
  });

  it("refuse an unknown option, the first in json.encode's key order", async () => {
    expect(
      await main(
        caught(
          "prompt.section('## S', { pretty = true })",
          "prompt.list('## S', { raw = true, zeta = 1, alpha = 2 })",
          "prompt.section('## S', { 'raw' })",
          "prompt.section('## S', { [1.5] = 1, a = 1 })",
          "prompt.section('## S', { [true] = 1, [2] = 1 })",
          "prompt.section('## S', { [{}] = 1 })",
        ),
        "## S",
        "- s",
      ),
    ).toBe(
      [
        "prompt.section: unknown option pretty; the only option is raw",
        "prompt.list: unknown option alpha; the only option is raw",
        "prompt.section: unknown option 1; the only option is raw",
        "prompt.section: unknown option number; the only option is raw",
        "prompt.section: unknown option boolean; the only option is raw",
        "prompt.section: unknown option table; the only option is raw",
      ].join("|"),
    );
  });

  it("refuse a raw option that is not a boolean", async () => {
    expect(
      await main(
        caught("prompt.section('## S', { raw = 1 })", "prompt.list('## S', { raw = 'yes' })"),
        "## S",
        "- s",
      ),
    ).toBe(
      "prompt.section: option raw must be a boolean, got integer|prompt.list: option raw must be a boolean, got string",
    );
  });

  it("check the target before the options, and the options before the section", async () => {
    expect(
      await main(caught("prompt.section(1, 2)", "prompt.section('## Missing', 2)"), "## S"),
    ).toBe("section target must be a string|prompt.section options must be a table, got integer");
  });
});

describe("render failures", () => {
  it("raise as prose's do, catchably, with a prose_render_failed event", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua(
        caught(
          "prompt.section('## Missing key')",
          "prompt.list('## Null')",
          "prompt.section('## Recursive')",
          "prompt.list('## Function')",
        ).replace("local out = {}", "var.n = json.null\nlocal out = {}"),
      ),
      "## Missing key",
      "{{ var.topic.name }}",
      "## Null",
      "- fine\n- {{ var.n }}",
      "## Recursive",
      "{{ prose }}",
      "## Function",
      "- {{ print_me }}\n- {{ string.upper }}",
    );
    expect(resultText(r)).toBe(
      [
        "missing {{ var.topic.name }}",
        "missing {{ var.n }}",
        "prose cannot be rendered inside prose: {{ prose }}",
        "missing {{ print_me }}",
      ].join("|"),
    );
    const kinds = r.port.events
      .filter((e) => e.type === "prose_render_failed")
      .map((e) => (e as { substitution?: string }).substitution);
    expect(kinds).toEqual(["MissingKey", "NullValue", "Recursive", "MissingKey"]);
  });

  it("names a value with no text form by its type", async () => {
    expect(
      await main(caught("prompt.section('## F')"), "## F", "Call {{ string.upper }} here"),
    ).toBe("{{ string.upper }} cannot be rendered: got function");
  });

  it("end the run as Lua at the reading line when uncaught", async () => {
    const error = failureOf(
      await run(
        "# T",
        "## Main",
        lua("local x = prompt.section('## Bad')"),
        "## Bad",
        "{{ nope }}",
      ),
    );
    expect(error.kind).toBe("Lua");
    expect(headline(error)).toBe(
      "section `Main` prologue:12: runtime error: section `Main` prologue:12: missing {{ nope }}",
    );
    const missing = failureOf(await run("# T", "## Main", lua("local x = prompt.list('## No')")));
    expect(headline(missing)).toBe(
      "section `Main` prologue:12: runtime error: section `Main` prologue:12: section heading `## No` not found",
    );
  });
});

describe("the prompt table", () => {
  it("is sealed like tools", async () => {
    expect(
      await main(
        `${caught("(function() prompt.section = nil end)()", "(function() prompt[1] = 1 end)()", "json.encode(prompt)")}
          .. '|' .. getmetatable(prompt) .. '|' .. type(prompt) .. '|' .. type(prompt.section)
          .. '|' .. type(prompt.list) .. '|' .. tostring(prompt.other) .. '|' .. tostring(next(prompt))`,
      ),
    ).toBe(
      [
        "prompt is read-only; cannot set 'section'",
        "prompt is read-only; cannot set '1'",
        "json.encode: value cannot be read (prompt is sealed); copy the fields you need into a plain table",
        "prompt is sealed",
        "table",
        "function",
        "function",
        "nil",
        "nil",
      ].join("|"),
    );
  });

  it("keeps its functions when a block replaces json, table.concat or the globals they read", async () => {
    expect(
      await main(
        "json = nil\ntable.concat = nil\nsetmetatable = nil\nvar.x = 'kept'\nreturn prompt.section('## S') .. '|' .. #prompt.list('## S')",
        "## S",
        "- {{ var.x }}",
      ),
    ).toBe("- kept|1");
  });

  it("never suspends: a read works where a suspending call cannot (a table.sort comparator)", async () => {
    expect(
      await main(
        `local seen = {}
local t = { 2, 1 }
table.sort(t, function(a, b)
  seen[#seen + 1] = prompt.section('## S') .. #prompt.list('## S')
  return a < b
end)
local ok, err = pcall(table.sort, { 2, 1 }, function(a, b) store.read('x') return a < b end)
return seen[1] .. '|' .. tostring(err):match('attempt to yield across a C%-call boundary')`,
        "## S",
        "- s",
      ),
    ).toBe("- s1|attempt to yield across a C-call boundary");
  });

  it("is not among what a Pack prelude sees (tools.txt: What prelude code can see)", async () => {
    const helper = "function prompt_type() return type(prompt) end\n";
    const r = await runPreludeCase({
      body: body("# T", "## Main", lua("return prompt_type() .. '|' .. type(prompt)")),
      frontmatter: "uses: [helper]\n",
      preludes: { helper },
    });
    expect(resultText(r)).toBe("nil|table");
  });
});

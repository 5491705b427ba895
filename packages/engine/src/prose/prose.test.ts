import { describe, expect, it } from "vitest";
import { failureOf, headline } from "../test-support/failure";
import { body, lua } from "../test-support/lua-fence";
import { promptText } from "../test-support/parse";
import { resultText, runTestPrompt } from "../test-support/run-prompt";

const run = (...parts: string[]) => runTestPrompt(promptText(body(...parts)));

describe("pending prose and placeholders", () => {
  it("gives each block the prose right before it, and the prologue none", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua("var.seen = '[' .. prose .. ']'"),
      "First prose.",
      lua("var.seen = var.seen .. '[' .. prose .. ']'"),
      "Second prose.",
      lua("return var.seen .. '[' .. prose .. ']'"),
    );
    expect(resultText(r)).toBe("[][First prose.][Second prose.]");
  });

  it("renders at the read, with the values of that moment", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua("tone = 'calm'"),
      "Be {{ tone }} with {{ sys.section_name }} at {{ var.n }}.",
      lua(
        "var.n = 1\nlocal first = prose\ntone = 'bold'\nvar.n = 2.5\nreturn first .. ' / ' .. prose",
      ),
    );
    expect(resultText(r)).toBe("Be calm with Main at 1. / Be bold with Main at 2.5.");
  });

  it("renders booleans and nested fields", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua("flag = true\nvar.t = { inner = { name = 'deep' } }"),
      "{{ flag }} {{ var.t.inner.name }}",
      lua("return prose"),
    );
    expect(resultText(r)).toBe("true deep");
  });

  it("reads a bare global through the author _G metatable", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua("setmetatable(_G, { __index = function(_, k) return 'fallback ' .. k end })"),
      "This block returns {{ missing_name }}.",
      lua("return prose"),
    );
    expect(resultText(r)).toBe("This block returns fallback missing_name.");
  });

  it("fails a missing value at the read, catchably", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua("var.x = 1"),
      "Hello {{ nothing }} and {{ sys.model }}.",
      lua(
        "local ok, err = pcall(function() return prose end)\nreturn tostring(ok) .. '|' .. tostring(err)",
      ),
    );
    expect(resultText(r)).toBe("false|missing {{ nothing }}");
    expect(r.port.events.find((e) => e.type === "prose_render_failed")).toMatchObject({
      substitution: "MissingKey",
      section: "Main",
    });
  });

  it("names an absent sys field and refuses prose inside prose", async () => {
    const sys = await run(
      "# T",
      "## Main",
      lua("x = 1"),
      "{{ sys.model }}",
      lua("local _, e = pcall(function() return prose end)\nreturn tostring(e)"),
    );
    expect(resultText(sys)).toBe("missing {{ sys.model }}");
    const rec = await run(
      "# T",
      "## Main",
      lua("x = 1"),
      "{{ prose }}",
      lua("local _, e = pcall(function() return prose end)\nreturn tostring(e)"),
    );
    expect(resultText(rec)).toBe("prose cannot be rendered inside prose: {{ prose }}");
  });

  it("refuses values with no text form, and assignments", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua("x = 1"),
      "{{ log }}",
      lua(
        "local _, e1 = pcall(function() return prose end)\nlocal _, e2 = pcall(function() prose = 'x' end)\nreturn tostring(e1) .. '|' .. tostring(e2)",
      ),
    );
    expect(resultText(r)).toBe(
      "{{ log }} cannot be rendered: got function|prose is read-only: it holds the section's pending prose",
    );
  });

  it("keeps text that is not a placeholder", async () => {
    const r = await run(
      "# T",
      "## Main",
      lua("x = 1"),
      "Literal {{ 1 + 1 }} stays.",
      lua("return prose"),
    );
    expect(resultText(r)).toBe("Literal {{ 1 + 1 }} stays.");
  });

  it("fails the run as Lua when a read is not caught (RequirementsUnmet in the H1 pass)", async () => {
    const walked = failureOf(
      await run("# T", "## Main", lua("x = 1"), "{{ nothing }}", lua("return prose")),
    );
    expect(walked.kind).toBe("Lua");
    expect(headline(walked)).toContain("missing {{ nothing }}");
    const h1 = failureOf(await run("# T", lua("x = 1"), "{{ nothing }}", lua("return prose")));
    expect(h1.kind).toBe("RequirementsUnmet");
    expect(h1.causes[0]).toContain("missing {{ nothing }}");
  });
});

// Cases of /work/shared/conformance/lua/07-section-entry-ids.yaml (the fanout cases need tasks).
import { describe, expect, it } from "vitest";
import { body, lua } from "../test-support/lua-fence";
import { promptText } from "../test-support/parse";
import { resultText, runTestPrompt } from "../test-support/run-prompt";

async function result(...parts: string[]): Promise<string | null> {
  return resultText(await runTestPrompt(promptText(body(...parts))));
}

describe("07-section-entry-ids", () => {
  it("numbered reads section entry ids along the main walk", async () => {
    expect(
      await result(
        "# Numbered",
        lua("assert(sys.id == '0.0')"),
        "## First",
        lua("assert(sys.id == '0.1')"),
        "## Second",
        lua("return sys.id"),
      ),
    ).toBe("0.2");
  });

  it("entry 0.0 stays reserved without an H1 block", async () => {
    expect(
      await result(
        "# Numbered",
        "## First",
        lua("assert(sys.id == '0.1')"),
        "## Second",
        lua("return sys.id"),
      ),
    ).toBe("0.2");
  });

  it("tostring of sys.id gives the same text", async () => {
    expect(
      await result(
        "# Numbered",
        lua("assert(sys.id == '0.0')"),
        "## First",
        lua("assert(sys.id == '0.1')"),
        "## Second",
        lua("return tostring(sys.id)"),
      ),
    ).toBe("0.2");
  });

  it("jumps into a child level continue the chain's count", async () => {
    expect(
      await result(
        "# Jump ids",
        "## A",
        lua("var.ids = sys.id\njump('### X')"),
        "### X",
        lua("var.ids = var.ids .. ',' .. sys.id\njump('### Y')"),
        "### Y",
        lua("var.ids = var.ids .. ',' .. sys.id\njump('## B')"),
        "## B",
        lua("return var.ids .. ',' .. sys.id"),
      ),
    ).toBe("0.1,0.2,0.3,0.4");
  });

  it("a section entered twice through jump reads a new id each time", async () => {
    expect(
      await result(
        "# Reentry ids",
        "## Loop",
        lua(
          "var.ids = var.ids and (var.ids .. ',' .. sys.id) or sys.id\nif var.again then\n  return var.ids\nend\nvar.again = true\njump('## Loop')",
        ),
      ),
    ).toBe("0.1,0.2");
  });

  it("called-ids reads section entry ids inside called chains", async () => {
    expect(
      await result(
        "# Called ids",
        "## Main",
        lua(
          "local a = call('### Sub')\nlocal b = call('### Sub')\nvar.ids = table.concat({ sys.id, a, b }, ',')",
        ),
        "### Sub",
        lua("return sys.id"),
        "## Last",
        lua("return var.ids .. ',' .. sys.id"),
      ),
    ).toBe("0.1,0.0.0,0.1.0,0.2");
  });

  it("a chain started by call numbers its own section entries", async () => {
    expect(
      await result(
        "# Called ids",
        "## Main",
        lua("var.ids = sys.id .. ',' .. call('### Sub')"),
        "### Sub",
        lua("assert(sys.id == '0.0.0')"),
        "### Tail",
        lua("return sys.id"),
        "## Last",
        lua("return var.ids .. ',' .. sys.id"),
      ),
    ).toBe("0.1,0.0.1,0.2");
  });

  it("a call from the H1 pass takes the root chain's first child slot", async () => {
    expect(
      await result(
        "# H1 call ids",
        lua("var.first = call('## Probe')"),
        "## Main",
        lua("local second = call('## Probe')\nreturn var.first .. ',' .. second .. ',' .. sys.id"),
        "## Probe",
        lua("return sys.id"),
      ),
    ).toBe("0.0.0,0.1.0,0.1");
  });

  it("sys.id builds a unique store path", async () => {
    const run = await runTestPrompt(
      promptText(
        body("# Park", "## Main", lua("store.write('park-' .. sys.id, 'x')\nreturn 'parked'")),
      ),
    );
    expect(resultText(run)).toBe("parked");
    expect(await run.port.files()).toEqual({ "park-0.1": "x" });
  });
});

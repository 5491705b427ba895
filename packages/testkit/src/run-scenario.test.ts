import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { definePack, definePlugin } from "@runvil/sdk";
import { describe, expect, it } from "vitest";
import { ScenarioFormatError } from "./format-error";
import { runScenario, ScenarioRunError } from "./run-scenario";

function prompt(lua: string, uses?: string): string {
  const usesLine = uses === undefined ? "" : `uses: [${uses}]\n`;
  return `---\nname: t\ndescription: t\nrunvil: 0\n${usesLine}---\n\n# T\n\n## Main\n\n\`\`\`lua\n${lua}\n\`\`\`\n`;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe("runScenario", () => {
  it("resolves with the run record of a prompt", async () => {
    const r = await runScenario({
      prompt: prompt("log('hi')\nstore.write('out.md', args)\nreturn args:upper()"),
      args: "ada",
      store: { "in.md": "x" },
      run: { seed: 1 },
    });
    expect(r.outcome).toBe("succeeded");
    expect(r.result).toBe("ADA");
    expect(r.checkpoints).toEqual(["Lua: hi"]);
    expect(r.store).toEqual({ "in.md": "x", "out.md": "ada" });
    expect(r.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(r.modelRequests).toEqual([]);
    expect(r.toolErrors).toEqual([]);
  });

  it("runs a script call to a tool left out of the offering, its schema not being an object", async () => {
    // Tools chapter, "How tool calls are recorded": such a call "runs normally" (issue 11, 12).
    const r = await runScenario({
      prompt: prompt(
        "local ok = pcall(tools.offer, 'stats/bad')\nreturn tostring(ok) .. '|' .. tools.call('stats/bad', { n = 1 }) .. '|' .. tools.calls['stats/bad']",
      ),
      host: { fixtureTools: [{ id: "stats/bad", parameters: "scalar", returns: "bad" }] },
    });
    expect(r.outcome).toBe("succeeded");
    expect(r.result).toBe("false|bad|1");
    expect(r.toolErrors).toEqual([]);
  });

  it("reads a prompt file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "testkit-run-"));
    const path = join(dir, "p.md");
    writeFileSync(path, prompt("return 'from file'"));
    expect((await runScenario({ promptFile: path })).result).toBe("from file");
  });

  it("scripts the operator, the web and fixture tools", async () => {
    const r = await runScenario({
      prompt: prompt(
        "return input.ask() .. '|' .. tools.call('stats/read') .. '|' .. #tools.call('web/fetch', { url = 'https://a/' })",
        "user-input, web",
      ),
      operator: ["blue"],
      web: { pages: { "https://a/": "page" } },
      host: { fixtureTools: [{ id: "stats/read", returns: "42" }] },
    });
    expect(r.result?.split("|").slice(0, 2)).toEqual(["blue", "42"]);
    expect(r.events.filter((e) => e.type === "tool_result").map((e) => e.tool)).toEqual([
      "user-input/ask",
      "stats/read",
      "web/fetch",
    ]);
  });

  it("resolves a refused prompt as a failed RequirementsUnmet run", async () => {
    const r = await runScenario({
      prompt: prompt("return 'x'", "user-input"),
      host: { services: ["search-provider"] },
    });
    expect([r.outcome, r.error, r.var]).toEqual([
      "failed",
      {
        kind: "RequirementsUnmet",
        message:
          "the environment cannot satisfy this prompt:\n- user-input needs runvil/input-broker, and the environment provides none",
      },
      undefined,
    ]);
  });

  it("resolves a parse error", async () => {
    const r = await runScenario({ prompt: prompt("local x =") });
    expect(r.parseError?.kind).toBe("Lua");
    expect(r.outcome).toBeUndefined();
  });

  it("rejects with a ScenarioRunError carrying the record when the operator runs out", async () => {
    const error = await rejection(
      runScenario({ prompt: prompt("return tostring(pcall(input.ask))", "user-input") }),
    );
    expect(error).toBeInstanceOf(ScenarioRunError);
    const runError = error as ScenarioRunError;
    expect(runError.message).toBe("the scenario scripts no operator answer for ask 1");
    expect(runError.record?.result).toBe("false");
  });

  it("answers model rounds with the scripted replies and records the requests", async () => {
    const r = await runScenario({
      prompt: prompt("models.use('writer')\nmessages:user('go')\nreturn models.loop()").replace(
        "runvil: 0\n",
        "runvil: 0\nmodels:\n  writer: {}\n",
      ),
      models: { replies: [{ text: "hi" }] },
    });
    expect(r.result).toBe("hi");
    expect(r.modelRequests).toEqual([{ tools: [], messages: 1, toolDefinitions: [] }]);
  });

  it("rejects a run that outlives the timeout", async () => {
    const error = await rejection(
      runScenario({ prompt: prompt("while true do end"), timeoutMs: 100 }),
    );
    expect((error as Error).message).toBe("the run did not finish within 100 ms");
  });

  it("throws a ScenarioFormatError for inputs that break the format", async () => {
    const error = await rejection(
      runScenario({ prompt: prompt("return 1"), run: { start: "yesterday" } }),
    );
    expect(error).toBeInstanceOf(ScenarioFormatError);
    expect((error as Error).message).toBe(
      'runScenario: run.start: "yesterday" is not a UTC instant such as 2000-01-01T00:00:00Z or 2000-02-29T00:00:00.123Z',
    );
  });

  it("lists what a plugin's tool threw that the run only saw as a generic failure", async () => {
    const boom = new Error("disk on fire");
    const plugin = definePlugin({
      name: "acme",
      setup(api) {
        api.addPack(
          definePack({
            vendor: "acme",
            name: "kit",
            description: "Kit.",
            tools: [
              {
                id: "kit/run",
                description: "Runs.",
                parameters: { type: "object", properties: {} },
                trust: "trusted",
                run: () => {
                  throw boom;
                },
              },
            ],
          }),
        );
      },
    });
    const r = await runScenario({
      prompt: prompt(
        "local ok, err = pcall(tools.call, 'kit/run')\nreturn tostring(err)",
        "acme/kit",
      ),
      plugins: [{ plugin }],
    });
    expect(r.result).toBe("tool call failure: kit_run: the tool failed");
    expect(r.toolErrors).toEqual([{ tool: "kit/run", error: boom }]);
  });
});

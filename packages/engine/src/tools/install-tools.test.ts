import { describe, expect, it } from "vitest";
import { parseForTest, promptText } from "../test-support/parse";
import { prepareScenario } from "./test-support/scenario-host";
import { openSectionVm, type SectionVm } from "./test-support/section-vm";
import { ToolPort } from "./test-support/tool-port";

const PROMPT = promptText("# Scope\n\n## Ask\n\n```lua\nreturn 1\n```\n", "uses: [web]\n");

async function withSection(use: (section: SectionVm) => Promise<void>): Promise<void> {
  const prepared = await prepareScenario(await parseForTest(PROMPT));
  const section = await openSectionVm(PROMPT, new ToolPort(prepared), prepared.catalog);
  try {
    await use(section);
  } finally {
    section.close();
  }
}

describe("installTools: the entry's scope", () => {
  it("records offers in first-offer order and nothing from a refused call", async () => {
    await withSection(async ({ entry, run }) => {
      await run(`
        tools.offer({ 'web/search', tools.get('web/fetch') })
        pcall(tools.offer, { 'user-input/ask', 'web/nope' })
        pcall(tools.offer, 'user-input/ask', 'web/fetch')
        packs.offer({ packs.get('user-input'), 'web' })
        pcall(packs.offer, { 'subagents', 'nope' })
        tools.offer(packs.get('user-input').tools)
      `);
      expect(entry.tools.offeredTools).toEqual(["web/search", "web/fetch", "user-input/ask"]);
      expect(entry.tools.offeredPacks).toEqual(["user-input", "web"]);
    });
  });

  it("records local tools with their schemas in definition order", async () => {
    await withSection(async ({ entry, run }) => {
      await run(`
        tools.offer_local('b', 'Second', { n = { 'number' } }, function() end)
        tools.offer_local('a', 'First', {}, function() end)
        pcall(tools.offer_local, 'c', 'Refused', { x = 'Text' }, function() end)
      `);
      expect([...entry.tools.locals.values()]).toEqual([
        {
          alias: "b",
          description: "Second",
          parameters: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
        },
        {
          alias: "a",
          description: "First",
          parameters: { type: "object", properties: {}, required: [] },
        },
      ]);
      expect(await run("return select(2, pcall(tools.call, 'c')).kind")).toEqual(["unbound_tool"]);
    });
  });

  it("stores the task allowlist trimmed, keeps it when a call is refused, and lets a later call replace it", async () => {
    await withSection(async ({ entry, run }) => {
      expect(entry.tools.allowlist).toBeNull();
      await run("tools.allow_tasks({ ' ## Draft ', '## Research', x = '## Ignored' })");
      expect(entry.tools.allowlist).toEqual(["## Draft", "## Research"]);
      await run("pcall(tools.allow_tasks, { '## Other', '  ' })\npcall(tools.allow_tasks, 'x')");
      expect(entry.tools.allowlist).toEqual(["## Draft", "## Research"]);
      await run("tools.allow_tasks(nil)");
      expect(entry.tools.allowlist).toBe("any");
    });
  });

  it("keeps one object per tool and per Pack in a VM", async () => {
    await withSection(async ({ run }) => {
      expect(
        await run(`
          local keyed = { [tools.get('web/fetch')] = 'found' }
          return keyed[tools.required()[1]], tools.extras()[1] == tools.get('user-input/ask'),
            tools.get('web/fetch').pack == packs.get('web'), packs.extras()[2] == packs.get('user-input')`),
      ).toEqual(["found", true, true, true]);
    });
  });

  it("lets later Engine Lua run a local tool under a model call id and round", async () => {
    await withSection(async ({ vm, run, entry }) => {
      await run(
        "tools.offer_local('grab', 'Grab', { value = 'string' }, function(a) return 'got ' .. a.value end)",
      );
      const outcome = vm.runPrivileged({
        source: `local lib = (...).tools_kit.lib()
          return lib.call_local('grab', lib.local_handler('grab'), '{"value":"x"}', 'call_7', 3)`,
        chunkName: "=loop",
      });
      expect(outcome.ok && outcome.values).toEqual(["got x"]);
      const events = (entry.ctx.options.effects as ToolPort).events.filter((e) =>
        e.type.startsWith("tool_"),
      );
      expect(
        events.map((e) => [e.type, "caller" in e ? e.caller : "-", "turn" in e ? e.turn : 0]),
      ).toEqual([
        ["tool_call_started", "model", 3],
        ["tool_call_succeeded", "model", 3],
        ["tool_result", "-", 3],
      ]);
      expect(events.at(-1)).toMatchObject({
        tool_call_id: "call_7",
        alias: "grab",
        content: "got x",
      });
      expect(entry.tools.handlerDepth).toBe(0);
    });
  });

  it("stays cheap until a member is used: the implementation loads on first use", async () => {
    await withSection(async ({ vm, run }) => {
      const before = vm.memoryUsed;
      await run("local t = tools.get('web/fetch')");
      expect(vm.memoryUsed).toBeGreaterThan(before);
    });
  });
});

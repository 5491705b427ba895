import type { RunCatalog } from "@runvil/protocol";
import { describe, expect, it } from "vitest";
import { parseForTest, promptText } from "../test-support/parse";
import { renderSectionTools } from "./render";
import { prepareScenario } from "./test-support/scenario-host";
import { openSectionVm, type SectionVm } from "./test-support/section-vm";
import { ToolPort } from "./test-support/tool-port";
import { toolListFixedMessage } from "./tool-messages";

const PROMPT = promptText(
  "# Render\n\n## Ask\n\n```lua\nreturn 1\n```\n\n## offers\n\n```lua\npacks.offer('web')\n```\n",
  "uses: [web]\n",
);

async function open(catalog?: RunCatalog): Promise<{ section: SectionVm; port: ToolPort }> {
  const prepared = await prepareScenario(await parseForTest(PROMPT));
  const port = new ToolPort(prepared);
  return { section: await openSectionVm(PROMPT, port, catalog ?? prepared.catalog), port };
}

describe("renderSectionTools", () => {
  it("lists tools.offer tools, then offered Packs' tools, then local tools", async () => {
    const { section, port } = await open();
    try {
      await section.run(`
        tools.offer_local('grab', 'Grab a value', { value = 'string' }, function() return '' end)
        packs.offer('user-input')
        tools.offer({ 'web/search' })
        tools.offer_local('task', 'Never advertised', {}, function() return '' end)
        tools.allow_tasks()
      `);
      const list = renderSectionTools(section.entry);
      expect(list.tools.map((t) => [t.name, t.tool])).toEqual([
        ["web_search", "web/search"],
        ["user-input_ask", "user-input/ask"],
        ["grab", null],
      ]);
      expect(list.tools[0]?.description).toBe(
        "Search the web and return a list of results (title, url, description).",
      );
      expect(list.tools[2]?.parameters).toEqual({
        type: "object",
        properties: { value: { type: "string" } },
        required: ["value"],
      });
      expect(list.taskBuiltins).toBe(true);
      expect(port.types().slice(-2)).toEqual([
        "tool_scope_validation_started",
        "tool_scope_validation_succeeded",
      ]);
      expect(renderSectionTools(section.entry)).toBe(list);
      expect(port.types().filter((t) => t.startsWith("tool_scope"))).toHaveLength(2);
    } finally {
      section.close();
    }
  });

  it("lets a local tool shadow an offered tool of the same wire name", async () => {
    const { section } = await open();
    try {
      await section.run(`
        packs.offer('web')
        tools.offer_local('web_search', 'Local search', { query = 'string' }, function() return '' end)
      `);
      const list = renderSectionTools(section.entry);
      expect(list.tools.map((t) => [t.name, t.description])).toEqual([
        ["web_fetch", "Fetch a web page and return its readable text."],
        ["web_search", "Local search"],
      ]);
      expect(list.taskBuiltins).toBe(false);
    } finally {
      section.close();
    }
  });

  it("fixes the list: the three offers refuse afterwards, before looking at their arguments", async () => {
    const { section } = await open();
    try {
      renderSectionTools(section.entry);
      const [result] = await section.run(`
        local out = {}
        for _, call in ipairs({
          function() tools.offer(42) end,
          function() packs.offer('web', 'extra') end,
          function() tools.offer_local() end,
        }) do
          local ok, err = pcall(call)
          out[#out + 1] = err.kind .. '|' .. tostring(err)
        end
        tools.allow_tasks({ '## Ask' })
        return table.concat(out, '\\n')
      `);
      expect(result).toBe(
        [
          `lua|${toolListFixedMessage("tools.offer")}`,
          `lua|${toolListFixedMessage("packs.offer")}`,
          `lua|${toolListFixedMessage("tools.offer_local")}`,
        ].join("\n"),
      );
      expect(renderSectionTools(section.entry).tools).toEqual([]);
      expect(section.entry.tools.allowlist).toEqual(["## Ask"]);
    } finally {
      section.close();
    }
  });

  it("counts a required library's offers as the entry's own", async () => {
    const { section } = await open();
    try {
      await section.run("tools.offer('web/search')\nrequire '## offers'");
      expect(renderSectionTools(section.entry).tools.map((t) => t.name)).toEqual([
        "web_search",
        "web_fetch",
      ]);
    } finally {
      section.close();
    }
  });

  it("refuses a tool no model round can advertise and stays unrendered", async () => {
    const bad: RunCatalog = {
      tools: [
        {
          id: "kit/run",
          pack: "kit",
          wireName: "kit run",
          description: "Runs.",
          parameters: { type: "object" },
          structured: false,
        },
      ],
      packs: null,
      preludes: [],
      dropped: [],
      models: [],
    };
    const { section, port } = await open(bad);
    try {
      await section.run("tools.offer('kit/run')");
      expect(() => renderSectionTools(section.entry)).toThrow(
        'the tool "kit run" cannot be offered to a model',
      );
      expect(port.types().slice(-2)).toEqual([
        "tool_scope_validation_started",
        "tool_scope_validation_failed",
      ]);
      expect(section.entry.tools.rendered).toBeNull();
      await section.run("tools.offer('kit/run')");
    } finally {
      section.close();
    }
  });
});

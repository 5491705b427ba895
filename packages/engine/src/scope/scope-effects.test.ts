import type { CatalogTool, ToolCallOutput, ToolCallRequest } from "@runvil/protocol";
import { describe, expect, it } from "vitest";
import { performStoreOp } from "../globals/store-global";
import { loadLuaRuntime } from "../lua";
import { RunContext } from "../run/run-context";
import { resolveRunOptions } from "../run/run-options";
import { body, lua } from "../test-support/lua-fence";
import { MemoryPort } from "../test-support/memory-port";
import { parseForTest, promptText } from "../test-support/parse";
import { testRootScope } from "../test-support/scope";
import { dispatchCatalogCall } from "../tools/catalog-call";
import { Chain } from "../walk/chain";
import { Entry } from "../walk/entry";
import { ScopeEnded } from "./scope";

const TOOL: CatalogTool = {
  id: "echo/say",
  pack: "echo",
  wireName: "echo_say",
  description: "Says it.",
  parameters: { type: "object", properties: {} },
  structured: false,
};

/** A MemoryPort that answers every tool call at once and keeps the requests. */
class EchoPort extends MemoryPort {
  readonly toolRequests: ToolCallRequest[] = [];

  async toolCall(request: ToolCallRequest): Promise<ToolCallOutput> {
    this.toolRequests.push(request);
    return { text: "said", trusted: true };
  }
}

/** An entry of section A on a call chain of the root chain, in a root scope that can stop. */
async function callEntry() {
  const port = new EchoPort();
  const prompt = await parseForTest(promptText(body("# T", "## A", lua("return 1"))));
  const catalog = { tools: [TOOL], packs: null, preludes: [], dropped: [], models: [] };
  const ctx = new RunContext(
    prompt,
    resolveRunOptions({ effects: port, catalog }),
    await loadLuaRuntime(),
  );
  const scope = await testRootScope({ shouldStop: () => false });
  const chain = Chain.root(scope).openCallChain(null);
  return { port, scope, entry: new Entry(ctx, chain, 0, "") };
}

const say = {
  tool: TOOL,
  name: "echo_say",
  arguments: {},
  caller: "script",
  callId: "",
  turn: 0,
} as const;

describe("effects carry their own scope's signals", () => {
  it("gives a store request and a tool call of a call chain the signals of its scope", async () => {
    const { port, scope, entry } = await callEntry();
    expect(entry.scope).toBe(scope);
    await performStoreOp(entry, { op: "exists", path: "x" });
    expect(await dispatchCatalogCall(entry, say)).toEqual({
      ok: true,
      text: "said",
      trusted: true,
    });
    expect(port.requests[0]?.signal).toBe(scope.signal);
    expect(port.toolRequests[0]?.signal).toBe(scope.signal);
    expect(port.toolRequests[0]?.stopSignal).toBe(scope.stopSignal);
  });

  it("issues no effect once the entry's scope has ended or is stopped", async () => {
    for (const end of ["cancel", "stop"] as const) {
      const { port, scope, entry } = await callEntry();
      if (end === "cancel") scope.end({ kind: "cancelled" });
      else scope.requestStop();
      await expect(performStoreOp(entry, { op: "exists", path: "x" })).rejects.toBeInstanceOf(
        ScopeEnded,
      );
      await expect(dispatchCatalogCall(entry, say)).rejects.toBeInstanceOf(ScopeEnded);
      expect([port.requests.length, port.toolRequests.length]).toEqual([0, 0]);
    }
  });
});

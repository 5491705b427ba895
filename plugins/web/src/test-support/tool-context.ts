import type { RunStore, Services, ToolContext } from "@runvil/sdk";

/** Services backed by a plain record (ids → service objects). */
export function fakeServices(entries: Readonly<Record<string, unknown>> = {}): Services {
  return {
    has: (id: string) => Object.hasOwn(entries, id),
    get: ((id: string) => entries[id]) as Services["get"],
  };
}

const noStore: RunStore = new Proxy({} as RunStore, {
  get: () => () => Promise.reject(new Error("the test store is not used")),
});

/** A ToolContext for calling a tool's `run` directly. */
export function toolContext(
  options: {
    services?: Readonly<Record<string, unknown>>;
    signal?: AbortSignal;
    toolId?: string;
  } = {},
): ToolContext {
  const toolId = options.toolId ?? "web/fetch";
  return {
    services: fakeServices(options.services),
    store: noStore,
    signal: options.signal ?? new AbortController().signal,
    origin: { execution: "run-1", section: "Only", caller: "script", chain: "0", entry: "1" },
    toolId,
    name: toolId.replaceAll("/", "_"),
  };
}

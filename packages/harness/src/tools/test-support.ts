import type { ToolCallRequest } from "@runvil/protocol";
import type { JsonObject, Services } from "@runvil/sdk";

/** The origin every test request carries. */
export const TEST_ORIGIN = {
  execution: "run-1",
  chain: "0",
  entry: "0.1",
  section: "Main",
  task: "t",
} as const;

/** A script call request for `tool` (name: its wire name). */
export function toolRequest(
  tool: string,
  args: JsonObject,
  overrides: Partial<ToolCallRequest> = {},
): ToolCallRequest {
  return {
    tool,
    name: tool.replace(/[/.]/g, "_"),
    arguments: args,
    caller: "script",
    callId: "",
    origin: TEST_ORIGIN,
    effect: "0.1/1",
    signal: new AbortController().signal,
    ...overrides,
  };
}

/** Services from a plain record. */
export function servicesOf(values: Readonly<Record<string, unknown>> = {}): Services {
  const map = new Map(Object.entries(values));
  return {
    has: (id: string) => map.has(id),
    get: (id: string): never => map.get(id) as never,
  };
}

/** What a promise rejects with (fails the test when it fulfills). */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

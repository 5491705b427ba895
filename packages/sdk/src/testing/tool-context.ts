import type { Services } from "../services";
import type { RunStore } from "../store";
import type { ToolCallOrigin, ToolContext } from "../tool";
import { TestStore } from "./test-store";

/** The origin testToolContext gives a call unless told otherwise. */
export const TEST_ORIGIN: ToolCallOrigin = Object.freeze({
  execution: "run-1",
  section: "Main",
  caller: "script",
  chain: "0",
  entry: "1",
});

/** What testToolContext builds a ToolContext from; every field is optional. */
export interface TestToolContextOptions {
  /** The tool's id (`ctx.toolId`); `test/tool` by default. */
  readonly toolId?: string;
  /** The name the call used (`ctx.name`); by default the id with each `/` as `_` (`test_tool`). */
  readonly name?: string;
  /** The run's store; a new, empty {@link TestStore} by default. */
  readonly store?: RunStore;
  /** The run's services, id -> service object; none by default. */
  readonly services?: Readonly<Record<string, unknown>>;
  /** The call's signal; one that never aborts by default. */
  readonly signal?: AbortSignal;
  /** Fields of the caller's origin to change; the rest are {@link TEST_ORIGIN}'s. */
  readonly origin?: Partial<ToolCallOrigin>;
  /** The call's effect id (`ctx.effectId`); `0.1/1` by default. */
  readonly effectId?: string;
  /** The recorded run's id (`ctx.runId`); none by default. */
  readonly runId?: string;
}

/** Services backed by a plain record of service id -> service object. */
export function testServices(services: Readonly<Record<string, unknown>> = {}): Services {
  const entries: Readonly<Record<string, unknown>> = { ...services };
  return {
    has: (id: string) => Object.hasOwn(entries, id),
    get: ((id: string) =>
      Object.hasOwn(entries, id) ? entries[id] : undefined) as Services["get"],
  };
}

/** A ToolContext for calling a tool's `run` directly in a test, as the Harness would lend it. */
export function testToolContext(options: TestToolContextOptions = {}): ToolContext {
  const toolId = options.toolId ?? "test/tool";
  return {
    services: testServices(options.services),
    store: options.store ?? new TestStore(),
    signal: options.signal ?? new AbortController().signal,
    origin: { ...TEST_ORIGIN, ...options.origin },
    toolId,
    name: options.name ?? toolId.replaceAll("/", "_"),
    effectId: options.effectId ?? "0.1/1",
    runId: options.runId,
  };
}

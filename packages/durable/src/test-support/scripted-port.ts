import { appendFileSync } from "node:fs";
import { applyStoreOperation } from "@runvil/harness";
import type {
  EffectPort,
  ModelRoundEffectRequest,
  ModelRoundOutput,
  RunEvent,
  StoreOperation,
  StoreOutput,
  StoreRequest,
  ToolCallOutput,
  ToolCallRequest,
} from "@runvil/protocol";
import type { RunStore } from "@runvil/sdk";

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Options of a scripted port. */
export interface ScriptedPortOptions {
  /** The run's store. */
  readonly store: RunStore;
  /** A seed for random completion delays of 0 to `maxDelayMs`; absent: no delay. */
  readonly delaySeed?: number;
  readonly maxDelayMs?: number;
  /** A file that gets one line per effect actually performed (`{kind} {effect id}`). */
  readonly logFile?: string;
  /** A tool call whose `value` argument is this never answers (a process to be killed in it). */
  readonly holdValue?: string;
  /** Called as each effect starts being performed (after its delay). */
  readonly onPerform?: (kind: string, effect: string) => void | Promise<void>;
}

/**
 * A Harness-like port for durable-run tests: store operations on a real store, the `fix/echo`
 * tool and a scripted model (a tool call to `fix_echo` on a user message, then `said …`), each
 * effect after a seeded random delay, every effect performed counted (and logged to a file, so a
 * killed process's work can be counted).
 */
export class ScriptedPort implements EffectPort {
  readonly events: RunEvent[] = [];
  readonly performed: string[] = [];
  private readonly options: ScriptedPortOptions;
  private readonly random: (() => number) | undefined;

  constructor(options: ScriptedPortOptions) {
    this.options = options;
    this.random = options.delaySeed === undefined ? undefined : prng(options.delaySeed);
  }

  private async perform<T>(kind: string, effect: string, answer: () => T | Promise<T>): Promise<T> {
    if (this.random !== undefined) {
      const ms = Math.floor(this.random() * ((this.options.maxDelayMs ?? 5) + 1));
      await new Promise((resolve) => setTimeout(resolve, ms));
    }
    this.performed.push(`${kind} ${effect}`);
    if (this.options.logFile !== undefined)
      appendFileSync(this.options.logFile, `${kind} ${effect}\n`);
    await this.options.onPerform?.(kind, effect);
    return answer();
  }

  storeOp<O extends StoreOperation>(request: StoreRequest<O>): Promise<StoreOutput<O["op"]>> {
    return this.perform("store", request.effect, () =>
      applyStoreOperation(this.options.store, request.operation),
    );
  }

  toolCall(request: ToolCallRequest): Promise<ToolCallOutput> {
    const hold =
      this.options.holdValue !== undefined && request.arguments.value === this.options.holdValue;
    return this.perform("tool", request.effect, () =>
      hold
        ? new Promise<never>(() => undefined)
        : {
            text: `echo(${String(request.arguments.value)})`,
            trusted: true,
          },
    );
  }

  modelRound(request: ModelRoundEffectRequest): Promise<ModelRoundOutput> {
    return this.perform("model", request.effect, () => {
      const last = request.messages[request.messages.length - 1];
      if (last?.role === "tool") return reply({ text: `said ${String(last.content)}` });
      const asked = last?.role === "user" ? String(last.content) : "";
      return reply({ toolCalls: [{ id: "c1", name: "fix_echo", arguments: { value: asked } }] });
    });
  }

  emit(event: RunEvent): void {
    this.events.push(event);
  }
}

function reply(parts: Partial<ModelRoundOutput>): ModelRoundOutput {
  const toolCalls = parts.toolCalls ?? [];
  return {
    text: parts.text ?? "",
    toolCalls,
    finishReason: toolCalls.length > 0 ? "tool_calls" : "stop",
    usage: { inputTokens: 1, outputTokens: 1 },
  };
}

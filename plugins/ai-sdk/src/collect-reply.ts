import type {
  LanguageModelV3FinishReason,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import type { ModelReply } from "@runvil/sdk";
import { MAX_REPLY_BYTES, MAX_REPLY_TOOL_CALLS } from "./limits";
import { ReplyRefused, StreamBroken } from "./round-errors";
import { addContent, type ReplyParts, replyOf } from "./v3-reply";

function tooManyCalls(count: number): ReplyRefused {
  return new ReplyRefused(
    `the reply has ${count} tool calls, over the limit of ${MAX_REPLY_TOOL_CALLS}`,
  );
}

function tooLarge(): ReplyRefused {
  return new ReplyRefused(`the reply is over the ${MAX_REPLY_BYTES}-byte limit`);
}

/** The reply of a `doGenerate` result, refused past the reply limits. */
export function replyOfGenerate(result: LanguageModelV3GenerateResult): ModelReply {
  const content = Array.isArray(result.content) ? result.content : [];
  let calls = 0;
  for (const item of content) if (item.type === "tool-call") calls += 1;
  if (calls > MAX_REPLY_TOOL_CALLS) throw tooManyCalls(calls);
  const parts: ReplyParts = { texts: [], toolCalls: [] };
  let bytes = 0;
  for (const item of content) {
    if (item.type === "text") bytes += item.text.length;
    else if (item.type === "tool-call") bytes += item.input.length;
    if (bytes > MAX_REPLY_BYTES) throw tooLarge();
    addContent(parts, item);
  }
  return replyOf(parts, result.finishReason, result.usage);
}

/** What reading a stream reports and is bounded by. */
export interface StreamReadOptions {
  /** Called with the estimated output tokens so far (characters ÷ 4), after each delta. */
  readonly onOutput?: (outputTokens: number) => void;
  /** How long the stream may go without a part before it counts as broken off, in ms. */
  readonly idleTimeoutMs: number;
  /** Aborted when the round ends (a cancel, a stop): reading stops at once. */
  readonly signal: AbortSignal;
}

/**
 * Reads a V3 stream to its `finish` part and assembles the reply: text deltas in order, the
 * complete `tool-call` parts (the `tool-input-*` deltas only count toward the progress). A
 * stream that errors, ends before `finish`, or sends nothing for `idleTimeoutMs` is
 * StreamBroken; one past the reply limits is ReplyRefused, and the stream is cancelled either way.
 */
export async function replyOfStream(
  stream: ReadableStream<LanguageModelV3StreamPart>,
  options: StreamReadOptions,
): Promise<ModelReply> {
  const reader = stream.getReader();
  const watch = new StreamWatch(reader, options.idleTimeoutMs, options.signal);
  const parts: ReplyParts = { texts: [], toolCalls: [] };
  let characters = 0;
  let finishReason: LanguageModelV3FinishReason | undefined;
  let usage: LanguageModelV3Usage | undefined;
  let finished = false;
  const report = (): void => options.onOutput?.(Math.ceil(characters / 4));
  try {
    for (;;) {
      const next = await watch.read();
      if (next.done) break;
      const part = next.value;
      switch (part.type) {
        case "text-delta":
          if (part.delta === "") break;
          parts.texts.push(part.delta);
          characters += part.delta.length;
          if (characters > MAX_REPLY_BYTES) throw tooLarge();
          report();
          break;
        case "reasoning-delta":
        case "tool-input-delta":
          if (part.delta === "") break;
          characters += part.delta.length;
          if (characters > MAX_REPLY_BYTES) throw tooLarge();
          report();
          break;
        case "tool-call":
          if (part.providerExecuted === true) break;
          if (parts.toolCalls.length === MAX_REPLY_TOOL_CALLS) {
            throw tooManyCalls(parts.toolCalls.length + 1);
          }
          addContent(parts, part);
          break;
        case "error":
          throw streamError(part.error);
        case "finish":
          finishReason = part.finishReason;
          usage = part.usage;
          finished = true;
          break;
        default:
          break;
      }
    }
  } catch (error) {
    reader.cancel().catch(() => {});
    throw error;
  } finally {
    watch.stop();
    reader.releaseLock();
  }
  if (!finished) throw new StreamBroken("the reply stream ended before its finish");
  const reply = replyOf(parts, finishReason, usage);
  options.onOutput?.(reply.usage.outputTokens);
  return reply;
}

/** What a reader's `read` resolves with. */
type ReadResult<T> = Awaited<ReturnType<ReadableStreamDefaultReader<T>["read"]>>;

function streamError(error: unknown): Error {
  // An error part that is an API error (an SSE `error` event with a status) keeps its
  // identity so that it is classified like a failed request; anything else broke the stream.
  if (typeof error === "object" && error !== null && "statusCode" in error)
    return error as unknown as Error;
  // A part that did not parse or fit the expected shape is a malformed reply, not a break.
  const name = (error as { name?: unknown } | null)?.name;
  if (name === "AI_JSONParseError" || name === "AI_TypeValidationError") return error as Error;
  const detail = error instanceof Error ? error.message : describeErrorPart(error);
  return new StreamBroken(`the reply stream reported an error: ${detail}`, { cause: error });
}

function describeErrorPart(error: unknown): string {
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error)?.slice(0, 500) ?? String(error);
  } catch {
    return String(error);
  }
}

/**
 * Reads a stream under an idle timeout and an abort signal with one timer and one listener for
 * the whole stream, not one per part: silence or an abort cancels the reader, which ends the
 * pending read, and the read then throws the reason (a part costs a timestamp).
 */
class StreamWatch<T> {
  readonly #reader: ReadableStreamDefaultReader<T>;
  readonly #idleMs: number;
  readonly #signal: AbortSignal;
  #reason: unknown;
  #stopped = false;
  #last = Date.now();
  #timer: ReturnType<typeof setTimeout>;
  readonly #onAbort = (): void => this.#fail(this.#signal.reason);

  constructor(reader: ReadableStreamDefaultReader<T>, idleMs: number, signal: AbortSignal) {
    this.#reader = reader;
    this.#idleMs = idleMs;
    this.#signal = signal;
    this.#timer = setTimeout(this.#check, idleMs);
    if (signal.aborted) this.#fail(signal.reason);
    else signal.addEventListener("abort", this.#onAbort, { once: true });
  }

  /** The next part; rejects with StreamBroken on a read error or silence, with the signal's reason on an abort. */
  async read(): Promise<ReadResult<T>> {
    let next: ReadResult<T>;
    try {
      next = await this.#reader.read();
    } catch (error) {
      if (this.#reason !== undefined) throw this.#reason;
      throw new StreamBroken(
        `the reply stream broke off: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
    if (this.#reason !== undefined) throw this.#reason;
    this.#last = Date.now();
    return next;
  }

  /** Stops the timer and the listener. */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#signal.removeEventListener("abort", this.#onAbort);
  }

  readonly #check = (): void => {
    if (this.#stopped) return;
    const idle = Date.now() - this.#last;
    if (idle >= this.#idleMs) {
      this.#fail(new StreamBroken(`the reply stream sent nothing for ${this.#idleMs / 1000} s`));
    } else {
      this.#timer = setTimeout(this.#check, this.#idleMs - idle);
    }
  };

  #fail(reason: unknown): void {
    if (this.#reason !== undefined || this.#stopped) return;
    this.#reason = reason ?? new Error("the reply stream was aborted");
    this.#reader.cancel(this.#reason).catch(() => {});
  }
}

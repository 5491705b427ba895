import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One scripted answer: a JSON body with a status and headers, or SSE events. */
export type ScriptedAnswer =
  | { readonly status: number; readonly headers?: Record<string, string>; readonly json: unknown }
  | { readonly sse: readonly unknown[] };

/** A chat-completion chunk of `delta` (and `finish_reason`), as an OpenAI-compatible server streams it. */
export function chunk(delta: Record<string, unknown>, finishReason: string | null = null): unknown {
  return {
    id: "chatcmpl-1",
    object: "chat.completion.chunk",
    created: 1_700_000_000,
    model: "qwen3",
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

/** The usage chunk that ends a stream. */
export function usageChunk(prompt: number, completion: number): unknown {
  return {
    id: "chatcmpl-1",
    object: "chat.completion.chunk",
    created: 1_700_000_000,
    model: "qwen3",
    choices: [],
    usage: {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
    },
  };
}

/** Answers a request from its body alone (the same request always gets the same answer). */
export type AnswerFor = (body: unknown) => ScriptedAnswer;

/**
 * A local OpenAI-compatible chat completions server on 127.0.0.1 for the CLI's end-to-end
 * tests: each request gets the next scripted answer (or, given a function, the answer for its
 * body, for runs whose rounds arrive in any order and may be tried again), and every request
 * body is kept.
 */
export class ScriptedOpenAiServer {
  readonly bodies: unknown[] = [];
  readonly #answers: ScriptedAnswer[];
  readonly #holds = new Map<number, Promise<void>>();
  #paused: Promise<void> | undefined;
  #held = 0;
  readonly #answerFor: AnswerFor | undefined;
  readonly #server: Server;

  constructor(answers: readonly ScriptedAnswer[] | AnswerFor) {
    this.#answers = typeof answers === "function" ? [] : [...answers];
    this.#answerFor = typeof answers === "function" ? answers : undefined;
    this.#server = createServer(async (req, res) => {
      let text = "";
      for await (const piece of req) text += String(piece);
      const body: unknown = JSON.parse(text === "" ? "null" : text);
      this.bodies.push(body);
      await this.#holds.get(this.bodies.length);
      while (this.#paused !== undefined) {
        this.#held += 1;
        await this.#paused;
        this.#held -= 1;
      }
      const answer = this.#answerFor === undefined ? this.#answers.shift() : this.#answerFor(body);
      if (answer === undefined) {
        res
          .writeHead(500, { "content-type": "application/json" })
          .end('{"error":{"message":"no answer scripted"}}');
        return;
      }
      if ("json" in answer) {
        res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
        res.end(JSON.stringify(answer.json));
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      for (const event of answer.sse) res.write(`data: ${JSON.stringify(event)}\n\n`);
      res.end("data: [DONE]\n\n");
    });
  }

  /**
   * Holds the `n`-th request (from 1) until the returned function is called, so a test can look
   * at a run while its model round is still open.
   */
  hold(n: number): () => void {
    let release = () => {};
    this.#holds.set(
      n,
      new Promise<void>((resolve) => {
        release = resolve;
      }),
    );
    return release;
  }

  /**
   * Holds every request (those arriving and those not yet answered) until the returned function
   * is called, so a test can have model rounds open and answer them all at a moment it picks.
   */
  pause(): () => void {
    let release = () => {};
    this.#paused = new Promise<void>((resolve) => {
      release = () => {
        this.#paused = undefined;
        resolve();
      };
    });
    return release;
  }

  /** Requests held by `pause` now. */
  get held(): number {
    return this.#held;
  }

  /** Listens on a free port and resolves with the base URL of its API (`http://127.0.0.1:N/v1`). */
  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/v1`;
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}

/** The answers of one triage: a 429, the retried round's two tool calls, then the reason. */
export function triageAnswers(): ScriptedAnswer[] {
  return [
    {
      status: 429,
      headers: { "retry-after": "0" },
      json: {
        error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" },
      },
    },
    {
      sse: [
        chunk({ role: "assistant", content: null }),
        chunk({
          tool_calls: [
            {
              index: 0,
              id: "c1",
              type: "function",
              function: { name: "add_label", arguments: '{"label":' },
            },
          ],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '"bug"}' } }] }),
        chunk({
          tool_calls: [
            {
              index: 1,
              id: "c2",
              type: "function",
              function: { name: "add_label", arguments: '{"label":"docs"}' },
            },
          ],
        }),
        chunk({}, "tool_calls"),
        usageChunk(180, 24),
      ],
    },
    {
      sse: [
        chunk({ role: "assistant", content: "" }),
        chunk({ content: "It crashes on start, " }),
        chunk({ content: "and the install docs are out of date." }),
        chunk({}, "stop"),
        usageChunk(230, 14),
      ],
    },
  ];
}

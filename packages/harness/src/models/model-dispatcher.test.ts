import {
  MODEL_SPECIFICATION_VERSION,
  ModelFailure,
  type ModelProvider,
  type ModelReply,
  type ModelRoundRequest,
} from "@runvil/sdk";
import { describe, expect, it } from "vitest";
import { ModelDispatcher, type ModelDispatchRequest } from "./model-dispatcher";

const REPLY: ModelReply = {
  text: "pong",
  toolCalls: [],
  finishReason: "stop",
  usage: { inputTokens: 3, outputTokens: 1 },
};

/** A provider `name` serving `m-1` whose round is `round`. */
function provider(
  round: (request: ModelRoundRequest) => Promise<unknown>,
  name = "acme",
): ModelProvider {
  return {
    specificationVersion: MODEL_SPECIFICATION_VERSION,
    name,
    models: [{ id: "m-1", contextWindow: 1000, maxOutputTokens: 100, tools: true }],
    round: round as ModelProvider["round"],
  };
}

function request(overrides: Partial<ModelDispatchRequest> = {}): ModelDispatchRequest {
  return {
    model: "m-1",
    messages: [{ role: "user", content: "ping" }],
    tools: [],
    settings: {},
    signal: new AbortController().signal,
    ...overrides,
  };
}

function dispatcher(served: ModelProvider) {
  const errors: { error: unknown; request: ModelDispatchRequest }[] = [];
  const models = new ModelDispatcher<ModelDispatchRequest>({
    providers: new Map([["m-1", served]]),
    onModelError: (error, req) => errors.push({ error, request: req }),
  });
  return { models, errors };
}

async function failureOf(promise: Promise<unknown>): Promise<ModelFailure> {
  const error = await promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (reason: unknown) => reason,
  );
  if (!(error instanceof ModelFailure))
    throw new Error(`expected a ModelFailure: ${String(error)}`);
  return error;
}

describe("ModelDispatcher", () => {
  it("hands the provider the round's model, system text, records, tools and settings", async () => {
    const seen: ModelRoundRequest[] = [];
    const { models, errors } = dispatcher(
      provider(async (req) => {
        seen.push(req);
        return REPLY;
      }),
    );
    const tools = [{ name: "grab", description: "Grab.", parameters: { type: "object" } }];
    const reply = await models.round(
      request({ system: "Be brief.", tools, settings: { temperature: 0, stop: ["END"] } }),
    );
    expect(reply).toEqual(REPLY);
    expect(seen).toHaveLength(1);
    const [sent] = seen;
    expect(sent && { ...sent, signal: undefined }).toEqual({
      model: "m-1",
      system: "Be brief.",
      messages: [{ role: "user", content: "ping" }],
      tools,
      settings: { temperature: 0, stop: ["END"] },
      signal: undefined,
    });
    expect(sent?.signal).toBeInstanceOf(AbortSignal);
    expect(errors).toEqual([]);
    expect(models.has("m-1")).toBe(true);
    expect(models.has("m-2")).toBe(false);
  });

  it("sends no system key when the role has none", async () => {
    const seen: ModelRoundRequest[] = [];
    const { models } = dispatcher(
      provider(async (req) => {
        seen.push(req);
        return REPLY;
      }),
    );
    await models.round(request());
    expect(seen[0] && "system" in seen[0]).toBe(false);
  });

  it("passes a ModelFailure through as a fresh one, its cause kept for the log only", async () => {
    const cause = new Error("HTTP 503 from https://api.acme.example?key=secret");
    const { models, errors } = dispatcher(
      provider(async () => {
        throw new ModelFailure("internal", "model is down", { retry: false }, { cause });
      }),
    );
    const failure = await failureOf(models.round(request()));
    expect([failure.kind, failure.message, failure.fields, failure.cause]).toEqual([
      "internal",
      "model is down",
      { retry: false },
      undefined,
    ]);
    expect(errors).toHaveLength(1);
    const reported = errors[0]?.error;
    expect(reported instanceof ModelFailure && reported.cause).toBe(cause);
  });

  it("passes a context_exhausted failure through without reporting it", async () => {
    const { models, errors } = dispatcher(
      provider(async () => {
        throw new ModelFailure("context_exhausted", "prompt is too long: 210000 tokens");
      }),
    );
    const failure = await failureOf(models.round(request()));
    expect([failure.kind, failure.message]).toEqual([
      "context_exhausted",
      "prompt is too long: 210000 tokens",
    ]);
    expect(errors).toEqual([]);
  });

  it("recognises a ModelFailure from another copy of the sdk by its brand", async () => {
    const foreign = Object.assign(new Error("overloaded"), {
      [Symbol.for("runvil.ModelFailure")]: true,
      kind: "internal",
      fields: { status: 529, nested: { no: 1 } },
    });
    const { models } = dispatcher(provider(async () => Promise.reject(foreign)));
    const failure = await failureOf(models.round(request()));
    expect([failure.kind, failure.message, failure.fields]).toEqual([
      "internal",
      "overloaded",
      { status: 529 },
    ]);
  });

  it("turns anything else a provider throws into internal, the real error to the log", async () => {
    const thrown = new TypeError("Cannot read properties of undefined (reading 'choices')");
    const { models, errors } = dispatcher(provider(async () => Promise.reject(thrown)));
    const req = request();
    const failure = await failureOf(models.round(req));
    expect([failure.kind, failure.message]).toEqual(["internal", "acme: the model round failed"]);
    expect(errors).toEqual([{ error: thrown, request: req }]);
  });

  it("treats a ModelFailure of a kind this sdk does not know as any other error", async () => {
    const old = Object.assign(new Error("no reply"), {
      [Symbol.for("runvil.ModelFailure")]: true,
      kind: "completion",
      fields: {},
    });
    const { models, errors } = dispatcher(provider(async () => Promise.reject(old)));
    expect((await failureOf(models.round(request()))).message).toBe("acme: the model round failed");
    expect(errors.map((e) => e.error)).toEqual([old]);
  });

  it("turns a malformed reply into internal, naming the problem in the log only", async () => {
    const { models, errors } = dispatcher(
      provider(async () => ({ ...REPLY, usage: { inputTokens: -3, outputTokens: 0 } })),
    );
    const failure = await failureOf(models.round(request()));
    expect(failure.message).toBe("acme: the model round failed");
    expect(String(errors[0]?.error)).toBe(
      "TypeError: model provider acme answered a malformed reply: usage.inputTokens must be a whole number of at least 0, got -3",
    );
  });

  it("refuses a model no provider serves in the run", async () => {
    const { models, errors } = dispatcher(provider(async () => REPLY));
    const failure = await failureOf(models.round(request({ model: "m-9" })));
    expect([failure.kind, failure.message]).toEqual([
      "internal",
      "m-9: no model provider serves this model in this run",
    ]);
    expect(errors).toHaveLength(1);
  });

  it("rejects at once on a cancel with the signal's reason, and reports nothing late", async () => {
    let seenSignal: AbortSignal | undefined;
    let release: () => void = () => {};
    const { models, errors } = dispatcher(
      provider((req) => {
        seenSignal = req.signal;
        return new Promise((_, reject) => {
          release = () => reject(new Error("socket closed"));
        });
      }),
    );
    const controller = new AbortController();
    const pending = models.round(request({ signal: controller.signal }));
    controller.abort(new Error("run cancelled"));
    await expect(pending).rejects.toThrow("run cancelled");
    expect(seenSignal?.aborted).toBe(true);
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(errors).toEqual([]);
  });

  it("never survives a stop: the stop signal aborts the round too", async () => {
    const { models } = dispatcher(provider(() => new Promise(() => {})));
    const stop = new AbortController();
    const pending = models.round(request({ stopSignal: stop.signal }));
    stop.abort("stopped");
    await expect(pending).rejects.toThrow("the model round was cancelled");
  });

  it("joins a cancel signal and a stop signal once, for every round of the pair", async () => {
    const seen: AbortSignal[] = [];
    const { models } = dispatcher(
      provider(async (req) => {
        seen.push(req.signal);
        return REPLY;
      }),
    );
    const cancel = new AbortController().signal;
    const stop = new AbortController();
    const otherStop = new AbortController().signal;
    await models.round(request({ signal: cancel, stopSignal: stop.signal }));
    await models.round(request({ signal: cancel, stopSignal: stop.signal }));
    await models.round(request({ signal: cancel, stopSignal: otherStop }));
    expect(seen[0]).toBe(seen[1]);
    expect(seen[2]).not.toBe(seen[0]);
    stop.abort("stopped");
    expect([seen[0]?.aborted, seen[2]?.aborted]).toEqual([true, false]);
  });

  it("does not call the provider when the signal is already aborted", async () => {
    let calls = 0;
    const { models } = dispatcher(
      provider(async () => {
        calls += 1;
        return REPLY;
      }),
    );
    const controller = new AbortController();
    controller.abort("cancelled");
    await expect(models.round(request({ signal: controller.signal }))).rejects.toThrow(
      "the model round was cancelled",
    );
    expect(calls).toBe(0);
  });

  it("ignores a log callback that throws", async () => {
    const models = new ModelDispatcher<ModelDispatchRequest>({
      providers: new Map([["m-1", provider(async () => Promise.reject(new Error("x")))]]),
      onModelError: () => {
        throw new Error("log is full");
      },
    });
    expect((await failureOf(models.round(request()))).message).toBe("acme: the model round failed");
  });
});

describe("ModelDispatcher progress", () => {
  it("relays the provider's progress while the round is open, never a listener's throw", async () => {
    let late: ((progress: import("@runvil/sdk").ModelRoundProgress) => void) | undefined;
    const { models } = dispatcher(
      provider(async (req) => {
        req.onProgress?.({ type: "retry", attempt: 1, delayMs: 0, reason: "rate limited (429)" });
        req.onProgress?.({ type: "output", outputTokens: 4, attempt: 2 });
        late = req.onProgress;
        return REPLY;
      }),
    );
    const seen: string[] = [];
    const reply = await models.round(
      request({
        onProgress: (progress) => {
          seen.push(progress.type);
          throw new Error("a broken display");
        },
      }),
    );
    expect(reply.text).toBe("pong");
    expect(seen).toEqual(["retry", "output"]);
    late?.({ type: "output", outputTokens: 9, attempt: 2 });
    expect(seen).toEqual(["retry", "output"]);
  });

  it("gives the provider no progress callback when nobody listens", async () => {
    let given: unknown = "unset";
    const { models } = dispatcher(
      provider(async (req) => {
        given = req.onProgress;
        return REPLY;
      }),
    );
    await models.round(request());
    expect(given).toBeUndefined();
  });
});

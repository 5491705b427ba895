import {
  ModelFailure,
  type ModelRoundProgress,
  type ModelRoundRequest,
  type ModelTool,
} from "@runvil/sdk";

/** The tool most tests advertise. */
export const GRAB: ModelTool = {
  name: "grab",
  description: "Grabs a thing.",
  parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
};

/** A round request on `model` with one user record, collecting progress into `progress`. */
export function roundRequest(
  model: string,
  progress: ModelRoundProgress[] = [],
  overrides: Partial<ModelRoundRequest> = {},
): ModelRoundRequest {
  return {
    model,
    system: "Be brief.",
    messages: [{ role: "user", content: "hi" }],
    tools: [],
    settings: {},
    signal: new AbortController().signal,
    onProgress: (p) => progress.push(p),
    ...overrides,
  };
}

/** The ModelFailure a promise rejects with (fails the test otherwise). */
export async function failureOf(promise: Promise<unknown>): Promise<ModelFailure> {
  const error = await promise.then(
    () => {
      throw new Error("expected the round to fail");
    },
    (reason: unknown) => reason,
  );
  if (!ModelFailure.isInstance(error)) throw error;
  return error;
}

/** Immediate retries with a fixed jitter, for tests. */
export const FAST_RETRY = { initialDelayMs: 1, maxDelayMs: 4, random: () => 0.5 };

import type { LanguageModelV3 } from "@ai-sdk/provider";

/** The AI SDK provider specification versions this plugin adapts. */
export const SUPPORTED_SPECIFICATIONS: readonly string[] = ["v3"];

/** A language model this plugin can run rounds on, by its specification version. */
export type AdaptedLanguageModel = { readonly version: "v3"; readonly model: LanguageModelV3 };

/** Why a value is not a language model the plugin can adapt, or the adapted model. */
export type LanguageModelCheck =
  | { readonly ok: true; readonly adapted: AdaptedLanguageModel }
  | { readonly ok: false; readonly problem: string };

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : typeof value;
}

/**
 * Branches on an AI SDK model's `specificationVersion`: `v3` (`@ai-sdk/provider` 3.x, the
 * `@ai-sdk/*` lines that run on Node 20) is adapted; `v2` and `v4` are refused with what to
 * install instead, so a V4 adapter can be added beside this one when the baseline moves to
 * Node 22.
 */
export function checkLanguageModel(value: unknown): LanguageModelCheck {
  if (typeof value !== "object" || value === null) {
    return { ok: false, problem: `it is not an AI SDK language model (got ${describe(value)})` };
  }
  const model = value as Partial<LanguageModelV3> & { specificationVersion?: unknown };
  const version = model.specificationVersion;
  if (version === "v3") {
    if (typeof model.doGenerate !== "function" || typeof model.doStream !== "function") {
      return {
        ok: false,
        problem: "it names specification v3 but has no doGenerate and doStream functions",
      };
    }
    return { ok: true, adapted: { version: "v3", model: model as LanguageModelV3 } };
  }
  if (version === "v2") {
    return {
      ok: false,
      problem:
        "it implements the AI SDK provider specification v2 (an @ai-sdk/* 2.x package); this plugin adapts v3: install the package's 3.x line",
    };
  }
  if (version === "v4") {
    return {
      ok: false,
      problem:
        "it implements the AI SDK provider specification v4 (an @ai-sdk/* 4.x package, Node 22); this plugin adapts v3: install the package's 3.x line",
    };
  }
  return {
    ok: false,
    problem:
      version === undefined
        ? "it is not an AI SDK language model (no specificationVersion)"
        : `it names AI SDK specification ${JSON.stringify(version)}; this plugin adapts v3`,
  };
}

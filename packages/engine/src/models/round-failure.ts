import { ModelFailure } from "@runvil/sdk";
import { EngineError } from "../lua";
import { genericRoundFailureMessage } from "./models-texts";

/** Field names an error value sets itself, which a provider's fields cannot replace. */
const OWN_FIELDS: ReadonlySet<string> = new Set(["kind", "message", "reason"]);

/** A provider's extra fields as error-value fields: every value as text. */
function fieldsOf(failure: ModelFailure): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(failure.fields)) {
    if (!OWN_FIELDS.has(name)) fields[name] = String(value);
  }
  return fields;
}

/**
 * The error value a failed model round raises in Lua (docs/design/loop.md §7): a ModelFailure
 * of kind `context_exhausted` keeps its message and its fields and gets `reason = "provider"`;
 * one of kind `internal` keeps its message (the kind has no fields); anything else is `internal` with `{model}: the model round
 * failed` (the real error stays with the Host).
 */
export function roundFailure(error: unknown, model: string): EngineError {
  if (ModelFailure.isInstance(error)) {
    const kind: string = error.kind;
    if (kind === "context_exhausted") {
      const fields = { ...fieldsOf(error), reason: "provider" };
      return new EngineError("context_exhausted", error.message, fields);
    }
    if (kind === "internal") return new EngineError("internal", error.message);
  }
  return new EngineError("internal", genericRoundFailureMessage(model));
}

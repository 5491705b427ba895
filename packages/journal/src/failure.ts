import {
  ModelFailure,
  type ModelFailureKind,
  StoreError,
  type StoreErrorReason,
  ToolFailure,
} from "@runvil/sdk";
import type { RecordedFailure } from "./records";

/** What the port rejected with, as the journal keeps it. */
export function recordFailure(error: unknown): RecordedFailure {
  if (StoreError.isInstance(error)) {
    return {
      type: "store",
      reason: error.reason,
      path: error.path,
      message: error.message,
      ...(error.count === undefined ? {} : { count: error.count }),
      ...(error.validUpTo === undefined ? {} : { validUpTo: error.validUpTo }),
    };
  }
  if (ToolFailure.isInstance(error)) return { type: "tool", message: error.message };
  if (ModelFailure.isInstance(error)) {
    return { type: "model", kind: error.kind, message: error.message, fields: { ...error.fields } };
  }
  if (error instanceof Error) return { type: "error", name: error.name, message: error.message };
  return { type: "error", name: "Error", message: String(error) };
}

/** The error a replay rejects with: the same class, reason and message as the recorded one. */
export function failureError(failure: RecordedFailure): Error {
  switch (failure.type) {
    case "store":
      return new StoreError({
        reason: failure.reason as StoreErrorReason,
        path: failure.path,
        message: failure.message,
        ...(failure.count === undefined ? {} : { count: failure.count }),
        ...(failure.validUpTo === undefined ? {} : { validUpTo: failure.validUpTo }),
      });
    case "tool":
      return new ToolFailure(failure.message);
    case "model":
      return new ModelFailure(failure.kind as ModelFailureKind, failure.message, failure.fields);
    case "error": {
      const error = new Error(failure.message);
      error.name = failure.name;
      return error;
    }
  }
}

import { EngineError } from "../engine-error";

/**
 * The prefix of a refusal that a Runvil guard raises as a plain runtime error ("Reading kind and
 * message"): reading `sys.nothing` gives `runtime error: unknown sys field 'nothing'`.
 */
export const RUNTIME_ERROR_PREFIX = "runtime error: ";

/** `text` after the runtime error prefix: `runtime error: {text}`. */
export function runtimeErrorMessage(text: string): string {
  return `${RUNTIME_ERROR_PREFIX}${text}`;
}

/**
 * A guard's refusal raised as a plain runtime error: an EngineError of kind `lua` whose message
 * is `runtime error: {text}`, as in `runtimeError("unknown sys field 'nothing'")`.
 */
export function runtimeError(text: string): EngineError {
  return new EngineError("lua", runtimeErrorMessage(text));
}

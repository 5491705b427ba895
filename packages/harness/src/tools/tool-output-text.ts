/** A tool output turned into the text a ToolCallOutput carries, or why it could not be. */
export type OutputText = { ok: true; text: string } | { ok: false; problem: string };

function refuseNonJson(_key: string, value: unknown): unknown {
  if (typeof value === "number" && !Number.isFinite(value)) {
    throw new TypeError(`${value} is not a JSON number`);
  }
  if (value === undefined || typeof value === "function" || typeof value === "symbol") {
    throw new TypeError(`${typeof value} is not JSON data`);
  }
  return value;
}

/**
 * The text of a tool's output. A string passes as is (for a structured tool, its JSON text);
 * any other value, from a structured or a plain tool, becomes its JSON text (`{"a":1}`, `42`,
 * `null`). A value that is not JSON data (undefined, a function, a bigint, a non-finite
 * number, a cycle, anywhere inside it) cannot be output: the call then fails.
 */
export function toolOutputText(output: unknown): OutputText {
  if (typeof output === "string") return { ok: true, text: output };
  try {
    const text = JSON.stringify(output, refuseNonJson);
    return { ok: true, text };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { ok: false, problem: `its output is not text or JSON data (${detail})` };
  }
}

import {
  canonicalJson,
  displayValue,
  jsonDifference,
  jsonEqual,
  jsonSubsetDifferences,
} from "./json-data";
import { formatKeyPath } from "./key-path";
import { type DiffLine, firstDifference, lineDiff } from "./line-diff";
import { withNonce, withNonceDeep } from "./nonce";
import type { ObservedModelRequest, RunRecord } from "./run-record";
import { compileScenarioRegex } from "./scenario-regex";
import type {
  ErrorExpectation,
  EventExpectation,
  Expectations,
  ModelRequestExpectation,
  TextExpectation,
} from "./scenario-types";

/** One expectation that did not hold. */
export interface Mismatch {
  /** Key path of the expectation, e.g. `expect.error.message` or `expect.events[2]`. */
  path: string;
  /** What went wrong, for a person. */
  message: string;
  /** The expected value (NONCE already replaced); undefined when nothing was expected there. */
  expected: unknown;
  /** The actual value; undefined when the run produced none. */
  actual: unknown;
  /** A line diff from expected to actual, for texts and data that span several lines. */
  diff?: DiffLine[];
}

type Push = (mismatch: Mismatch) => void;

/**
 * Compares what a run produced with a case's expectations and returns every expectation that
 * failed (empty: the case passed). Only the keys given are checked, with one exception: a
 * parse error the case does not expect always fails the case, because nothing ran. The
 * semantics of each key are documented in docs/testing.md.
 */
export function checkExpectations(expect: Expectations, actual: RunRecord): Mismatch[] {
  const out: Mismatch[] = [];
  const push: Push = (mismatch) => out.push(mismatch);
  const nonce = actual.nonce;

  if (expect.parseError === undefined && actual.parseError !== undefined) {
    const { kind, message } = actual.parseError;
    push({
      path: "expect.parse_error",
      message: `the prompt failed to parse (${kind}: ${firstLine(message)}), and the case expects no parse_error`,
      expected: undefined,
      actual: actual.parseError,
    });
    return out;
  }
  if (expect.parseError !== undefined) checkParseError(push, expect.parseError, actual, nonce);
  if (expect.outcome !== undefined && expect.outcome !== actual.outcome) {
    push({
      path: "expect.outcome",
      message: `expected the run to end ${expect.outcome}, but it ${describeEnd(actual)}`,
      expected: expect.outcome,
      actual: actual.outcome,
    });
  }
  if (expect.error !== undefined) checkError(push, expect.error, actual, nonce);
  if (expect.result !== undefined) checkResult(push, withNonce(expect.result, nonce), actual);
  if (expect.resultMatches !== undefined) checkResultMatches(push, expect.resultMatches, actual);
  if (expect.checkpoints !== undefined) {
    checkCheckpoints(push, withNonceDeep(expect.checkpoints, nonce), actual.checkpoints);
  }
  if (expect.modelRequests !== undefined) {
    checkModelRequests(push, withNonceDeep(expect.modelRequests, nonce), actual.modelRequests);
  }
  if (expect.events !== undefined)
    checkEvents(push, withNonceDeep(expect.events, nonce), actual.events);
  if (expect.store !== undefined)
    checkStore(push, withNonceDeep(expect.store, nonce), actual.store);
  if (expect.var !== undefined) checkVar(push, withNonceDeep(expect.var, nonce), actual.var);
  if (expect.usage !== undefined) checkUsage(push, expect.usage, actual.usage);
  return out;
}

function firstLine(text: string): string {
  const line = text.split("\n")[0] ?? "";
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}

function clip(text: string, length = 60): string {
  return text.length > length ? `${text.slice(0, length - 3)}...` : text;
}

/** "succeeded with result "..."" / "failed (Lua: ...)" / "never started (parse error ...)". */
function describeEnd(actual: RunRecord): string {
  if (actual.parseError !== undefined) {
    return `never ran: the prompt failed to parse (${actual.parseError.kind}: ${clip(firstLine(actual.parseError.message))})`;
  }
  const error =
    actual.error === undefined
      ? ""
      : ` with ${actual.error.kind}: ${clip(firstLine(actual.error.message))}`;
  const result =
    actual.result === undefined ? "" : ` with result ${JSON.stringify(clip(actual.result))}`;
  if (actual.outcome === undefined) return `ended without an outcome${error}${result}`;
  const ended = actual.outcome === "cancelled" ? "was cancelled" : actual.outcome;
  return `${ended}${error}${result}`;
}

/** A mismatch between an exact expected text and the actual text, with position and diff. */
function textMismatch(path: string, what: string, expected: string, actual: string): Mismatch {
  const at = firstDifference(expected, actual);
  const multiline = expected.includes("\n") || actual.includes("\n");
  let where = "";
  if (at !== undefined)
    where = multiline ? ` at line ${at.line}, column ${at.column}` : ` at column ${at.column}`;
  let hint = "";
  if (expected.trimEnd() === actual.trimEnd()) hint = " (only trailing whitespace differs)";
  else if (actual.startsWith(expected)) hint = " (the actual text is longer)";
  else if (expected.startsWith(actual)) hint = " (the actual text is shorter)";
  const mismatch: Mismatch = { path, message: `${what} differs${where}${hint}`, expected, actual };
  if (multiline) mismatch.diff = lineDiff(expected, actual);
  return mismatch;
}

function checkResult(push: Push, expected: string, actual: RunRecord): void {
  if (actual.result === undefined) {
    push({
      path: "expect.result",
      message: `the run produced no result: it ${describeEnd(actual)}`,
      expected,
      actual: undefined,
    });
  } else if (actual.result !== expected) {
    push(textMismatch("expect.result", "the result", expected, actual.result));
  }
}

function checkResultMatches(push: Push, source: string, actual: RunRecord): void {
  const path = "expect.result_matches";
  if (actual.result === undefined) {
    push({
      path,
      message: `the run produced no result: it ${describeEnd(actual)}`,
      expected: source,
      actual: undefined,
    });
    return;
  }
  const matched = testRegex(push, path, source, actual.result);
  if (matched === false) {
    push({
      path,
      message: "the result does not match the regular expression",
      expected: source,
      actual: actual.result,
    });
  }
}

/** Tests a regex; reports an invalid one as a mismatch and returns undefined. */
function testRegex(push: Push, path: string, source: string, text: string): boolean | undefined {
  const compiled = compileScenarioRegex(source);
  if (!compiled.ok) {
    push({
      path,
      message: `invalid regular expression: ${compiled.reason}`,
      expected: source,
      actual: text,
    });
    return undefined;
  }
  return compiled.regex.test(text);
}

function checkParseError(
  push: Push,
  expected: TextExpectation,
  actual: RunRecord,
  nonce: string | undefined,
): void {
  if (actual.parseError === undefined) {
    push({
      path: "expect.parse_error",
      message: `expected the prompt to fail to parse, but it parsed and the run ${describeEnd(actual)}`,
      expected: errorExpectationData(expected),
      actual: undefined,
    });
    return;
  }
  checkErrorText(push, "expect.parse_error", "parse error", expected, actual.parseError, nonce);
}

function checkError(
  push: Push,
  expected: ErrorExpectation,
  actual: RunRecord,
  nonce: string | undefined,
): void {
  const error = actual.error;
  if (error === undefined) {
    push({
      path: "expect.error",
      message: `expected the run to fail, but it ${describeEnd(actual)}`,
      expected: errorExpectationData(expected),
      actual: undefined,
    });
    return;
  }
  checkErrorText(push, "expect.error", "run error", expected, error, nonce);
  if (expected.causeContains === undefined) return;
  const want = withNonce(expected.causeContains, nonce);
  const path = "expect.error.cause_contains";
  if (error.cause === undefined) {
    push({ path, message: "the run error has no cause", expected: want, actual: undefined });
  } else if (!error.cause.includes(want)) {
    push({
      path,
      message: "the run error's cause does not contain the expected text",
      expected: want,
      actual: error.cause,
    });
  }
}

function checkErrorText(
  push: Push,
  base: string,
  what: string,
  expected: TextExpectation,
  actual: { kind: string; message: string },
  nonce: string | undefined,
): void {
  if (expected.kind !== undefined && expected.kind !== actual.kind) {
    push({
      path: `${base}.kind`,
      message: `expected ${what} kind ${expected.kind}, got ${actual.kind} (${clip(firstLine(actual.message))})`,
      expected: expected.kind,
      actual: actual.kind,
    });
  }
  if (expected.message !== undefined) {
    const want = withNonce(expected.message, nonce);
    const line = firstLine(actual.message);
    if (line !== want) {
      const mismatch = textMismatch(
        `${base}.message`,
        `the first line of the ${what} message`,
        want,
        line,
      );
      const more = actual.message.split("\n").length - 1;
      if (more > 0)
        mismatch.message += ` (the message has ${more} more line${more === 1 ? "" : "s"})`;
      push(mismatch);
    }
  }
  if (expected.messageContains !== undefined) {
    const want = withNonce(expected.messageContains, nonce);
    if (!actual.message.includes(want)) {
      push({
        path: `${base}.message_contains`,
        message: `the ${what} message does not contain the expected text`,
        expected: want,
        actual: actual.message,
      });
    }
  }
  if (expected.messageMatches !== undefined) {
    const path = `${base}.message_matches`;
    if (testRegex(push, path, expected.messageMatches, actual.message) === false) {
      push({
        path,
        message: `the ${what} message does not match the regular expression`,
        expected: expected.messageMatches,
        actual: actual.message,
      });
    }
  }
}

/** The expectation as written in the file (YAML key names), for a report. */
function errorExpectationData(expected: ErrorExpectation): Record<string, string> {
  const data: Record<string, string> = {};
  if (expected.kind !== undefined) data.kind = expected.kind;
  if (expected.message !== undefined) data.message = expected.message;
  if (expected.messageContains !== undefined) data.message_contains = expected.messageContains;
  if (expected.messageMatches !== undefined) data.message_matches = expected.messageMatches;
  if (expected.causeContains !== undefined) data.cause_contains = expected.causeContains;
  return data;
}

function checkCheckpoints(push: Push, expected: string[], actual: string[]): void {
  if (jsonEqual(expected, actual)) return;
  const index = expected.findIndex((checkpoint, i) => checkpoint !== actual[i]);
  let message: string;
  if (index === -1) {
    message = `expected ${count(expected.length, "checkpoint")}, got ${actual.length}: checkpoints[${expected.length}] and after were not expected`;
  } else if (index >= actual.length) {
    message = `expected ${count(expected.length, "checkpoint")}, got ${actual.length}: checkpoints[${index}] ${JSON.stringify(clip(expected[index] ?? ""))} is missing`;
  } else {
    message = `checkpoints[${index}] differs: expected ${JSON.stringify(clip(expected[index] ?? ""))}, got ${JSON.stringify(clip(actual[index] ?? ""))}`;
  }
  push({ path: "expect.checkpoints", message, expected, actual, diff: lineDiff(expected, actual) });
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

function checkModelRequests(
  push: Push,
  expected: ModelRequestExpectation[],
  actual: ObservedModelRequest[],
): void {
  if (expected.length !== actual.length) {
    const seen = actual.map((request) => `[${request.tools.join(", ")}]`).join(", ");
    push({
      path: "expect.model_requests",
      message:
        actual.length === 0
          ? `expected ${count(expected.length, "model request")}, but none was made`
          : `expected ${count(expected.length, "model request")}, got ${actual.length} (tools advertised: ${seen})`,
      expected: expected.length,
      actual: actual.length,
    });
  }
  const shared = Math.min(expected.length, actual.length);
  for (let index = 0; index < shared; index++) {
    const want = expected[index];
    const got = actual[index];
    if (want === undefined || got === undefined) continue;
    checkModelRequest(push, `expect.model_requests[${index}]`, want, got);
  }
}

function checkModelRequest(
  push: Push,
  base: string,
  expected: ModelRequestExpectation,
  actual: ObservedModelRequest,
): void {
  if (expected.tools !== undefined && !jsonEqual(expected.tools, actual.tools)) {
    push({
      path: `${base}.tools`,
      message: `expected the tools [${expected.tools.join(", ")}] advertised, got [${actual.tools.join(", ")}]`,
      expected: expected.tools,
      actual: actual.tools,
    });
  }
  if (expected.messages !== undefined && expected.messages !== actual.messages) {
    push({
      path: `${base}.messages`,
      message: `expected ${count(expected.messages, "message record")} sent, got ${actual.messages}`,
      expected: expected.messages,
      actual: actual.messages,
    });
  }
  const definitions = expected.toolDefinitions;
  if (definitions === undefined) return;
  const got = actual.toolDefinitions;
  if (definitions.length !== got.length) {
    push({
      path: `${base}.tool_definitions`,
      message: `expected ${count(definitions.length, "tool definition")}, got ${got.length} (${got.map((d) => d.name).join(", ")})`,
      expected: definitions.length,
      actual: got.length,
    });
  }
  for (let index = 0; index < Math.min(definitions.length, got.length); index++) {
    const want = definitions[index];
    const have = got[index];
    if (want === undefined || have === undefined) continue;
    const at = `${base}.tool_definitions[${index}]`;
    for (const key of ["name", "description"] as const) {
      const value = want[key];
      if (value !== undefined && value !== have[key]) {
        push(
          value.includes("\n") || have[key].includes("\n")
            ? textMismatch(`${at}.${key}`, `the tool ${key}`, value, have[key])
            : {
                path: `${at}.${key}`,
                message: `expected the tool ${key} ${JSON.stringify(value)}, got ${JSON.stringify(have[key])}`,
                expected: value,
                actual: have[key],
              },
        );
      }
    }
    if (want.parameters !== undefined) {
      checkJson(push, `${at}.parameters`, "parameters", want.parameters, have.parameters);
    }
  }
}

/** Deep JSON comparison reported at the first difference, with a diff of the pretty JSON. */
function checkJson(
  push: Push,
  path: string,
  root: string,
  expected: unknown,
  actual: unknown,
): void {
  const difference = jsonDifference(expected, actual);
  if (difference === undefined) return;
  const where =
    difference.path.length === 0 ? "" : ` at ${formatKeyPath([root, ...difference.path])}`;
  const mismatch: Mismatch = {
    path,
    message: `${root} differs${where}: expected ${displayValue(difference.expected)}, got ${displayValue(difference.actual)}`,
    expected,
    actual,
  };
  const left = canonicalJson(expected);
  const right = canonicalJson(actual);
  if (left.includes("\n") || right.includes("\n")) mismatch.diff = lineDiff(left, right);
  push(mismatch);
}

function checkEvents(
  push: Push,
  expected: EventExpectation[],
  actual: Record<string, unknown>[],
): void {
  let next = 0;
  let previousMatch = -1;
  expected.forEach((want, k) => {
    const path = `expect.events[${k}]`;
    const found = findEvent(want, actual, next, actual.length);
    if (found !== -1) {
      previousMatch = found;
      next = found + 1;
      return;
    }
    const earlier = findEvent(want, actual, 0, next);
    if (earlier !== -1) {
      push({
        path,
        message: `the run's events[${earlier}] matches, but it comes before events[${previousMatch}], which matched expect.events[${k - 1}]; the expected events must occur in this order`,
        expected: want,
        actual: actual[earlier],
      });
      return;
    }
    const sameType = actual
      .map((event, index) => ({ event, index }))
      .filter(({ event }) => jsonEqual(want.type, event.type));
    if (sameType.length === 0) {
      const types = [...new Set(actual.map((event) => displayValue(event.type)))].join(", ");
      push({
        path,
        message: `the run emitted no ${JSON.stringify(want.type)} event (event types seen: ${types === "" ? "none" : types})`,
        expected: want,
        actual: undefined,
      });
      return;
    }
    const candidates = sameType.filter(({ index }) => index >= next);
    const pool = candidates.length > 0 ? candidates : sameType;
    let best = pool[0];
    let bestKeys = best === undefined ? [] : jsonSubsetDifferences(want, best.event);
    for (const candidate of pool) {
      const keys = jsonSubsetDifferences(want, candidate.event);
      if (keys.length < bestKeys.length) {
        best = candidate;
        bestKeys = keys;
      }
    }
    if (best === undefined) return;
    const closest = best.event;
    const details = bestKeys
      .map(
        (key) => `${key}: expected ${displayValue(want[key])}, got ${displayValue(closest[key])}`,
      )
      .join("; ");
    const after = previousMatch === -1 ? "" : ` after events[${previousMatch}]`;
    push({
      path,
      message: `no ${JSON.stringify(want.type)} event${after} has all the expected keys; the closest is the run's events[${best.index}]: ${details}`,
      expected: want,
      actual: closest,
    });
  });
}

function findEvent(
  want: EventExpectation,
  actual: Record<string, unknown>[],
  from: number,
  to: number,
): number {
  for (let index = from; index < to; index++) {
    const event = actual[index];
    if (event !== undefined && jsonSubsetDifferences(want, event).length === 0) return index;
  }
  return -1;
}

function checkStore(
  push: Push,
  expected: Record<string, string>,
  actual: Record<string, string>,
): void {
  const at = (file: string) => formatKeyPath(["expect", "store", file]);
  for (const [file, content] of Object.entries(expected)) {
    if (!Object.hasOwn(actual, file)) {
      push({
        path: at(file),
        message: "the file is missing from the store after the run",
        expected: content,
        actual: undefined,
      });
      continue;
    }
    const got = actual[file] ?? "";
    if (got !== content)
      push(textMismatch(at(file), `the content of ${JSON.stringify(file)}`, content, got));
  }
  const extra = Object.keys(actual)
    .filter((file) => !Object.hasOwn(expected, file))
    .sort();
  for (const file of extra) {
    push({
      path: at(file),
      message:
        "the store holds a file the case does not list (expect.store lists every file after the run)",
      expected: undefined,
      actual: actual[file],
    });
  }
}

function checkVar(push: Push, expected: unknown, actual: unknown): void {
  if (actual === undefined) {
    push({
      path: "expect.var",
      message: "var was not read back at the end of the run",
      expected,
      actual,
    });
    return;
  }
  checkJson(push, "expect.var", "var", expected, actual);
}

function checkUsage(
  push: Push,
  expected: Record<string, number | string | null>,
  actual: Record<string, number | string | null> | undefined,
): void {
  for (const [key, value] of Object.entries(expected)) {
    const path = `expect.usage.${key}`;
    if (actual === undefined) {
      push({ path, message: "the run never started, so it has no usage", expected: value, actual });
      continue;
    }
    if (actual[key] !== value) {
      push({
        path,
        message: `expected the run's ${key} to be ${JSON.stringify(value)}, got ${JSON.stringify(actual[key])}`,
        expected: value,
        actual: actual[key],
      });
    }
  }
}

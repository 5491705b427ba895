import type { IssueSink } from "./field-reader";
import { formatKeyPath } from "./key-path";
import type { RunRecord } from "./run-record";

/** A run record for tests: a succeeded run with result "ok" and nothing else, plus overrides. */
export function runRecord(overrides: Partial<RunRecord> = {}): RunRecord {
  return {
    outcome: "succeeded",
    result: "ok",
    checkpoints: [],
    modelRequests: [],
    events: [],
    store: {},
    var: {},
    ...overrides,
  };
}

/** A sink that records issues as "key.path: message" lines. */
export function issueCollector(): { sink: IssueSink; issues: string[] } {
  const issues: string[] = [];
  return { sink: (path, message) => issues.push(`${formatKeyPath(path)}: ${message}`), issues };
}

/** A 32-hex-digit nonce for tests. */
export const TEST_NONCE = "0123456789abcdef0123456789abcdef";

import type { RunOutcome } from "./scenario-types";

/** A tool definition as a model request carried it. */
export interface ObservedToolDefinition {
  name: string;
  description: string;
  parameters: unknown;
}

/** One model request as the runner observed it. */
export interface ObservedModelRequest {
  /** Wire names advertised, in order. */
  tools: string[];
  /** Number of message records sent. */
  messages: number;
  /** Tool definitions sent, in order. */
  toolDefinitions: ObservedToolDefinition[];
}

/** What one prompt run produced, as the runner observed it. */
export interface RunRecord {
  /** Set when the prompt failed to parse; nothing ran then. */
  parseError?: { kind: string; message: string };
  /** How the run ended; absent when it never started. */
  outcome?: RunOutcome;
  /** The run result text, when the run produced one. */
  result?: string;
  /** The run error, when the run failed. */
  error?: { kind: string; message: string; cause?: string };
  /** The run's nonce, 32 hex digits; `NONCE` in exact expected strings stands for it. */
  nonce?: string;
  /** Log checkpoints, in order. */
  checkpoints: string[];
  /** Model requests, in order. */
  modelRequests: ObservedModelRequest[];
  /** Events, in order; each has at least `type`. */
  events: Record<string, unknown>[];
  /** Files in the store after the run. */
  store: Record<string, string>;
  /** JSON data of `var` read back at the end; `undefined` when it was not read back. */
  var: unknown;
  /** The run's total usage under the `expect.usage` keys; absent when the run never started. */
  usage?: Record<string, number | string | null>;
}

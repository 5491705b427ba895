import type { InputBroker } from "@runvil/sdk";
import type { CliIo } from "../io";

/** The `--input` values: where a run's input broker (`runvil/input-broker`) comes from. */
export const INPUT_MODES = ["auto", "stdin", "none"] as const;

/** One `--input` value. */
export type InputMode = (typeof INPUT_MODES)[number];

/** Reads an `--input` value (default `auto`); undefined when it is not one. */
export function parseInputMode(text: string | undefined): InputMode | undefined {
  if (text === undefined) return "auto";
  return INPUT_MODES.find((mode) => mode === text);
}

/** The usage error printed for a bad `--input`. */
export function inputModeUsageError(text: string): string {
  return `error: --input must be one of auto, stdin, none, got ${JSON.stringify(text)}`;
}

/**
 * Whether a run gets an input broker: `auto` when standard input is a terminal, `stdin`
 * whenever the CLI has an operator (answers read line by line, e.g. from a pipe), `none` never.
 */
export function lendsBroker(mode: InputMode, io: CliIo): boolean {
  if (io.operator === undefined || mode === "none") return false;
  return mode === "stdin" || io.operator.isTTY;
}

/**
 * The operator's broker for one run, erasing the progress line (`beforeAsk`) before each
 * question so the prompt and the typed answer have the line to themselves.
 */
export function operatorBroker(io: CliIo, beforeAsk: () => void): InputBroker | undefined {
  const operator = io.operator;
  if (operator === undefined) return undefined;
  let broker: InputBroker | undefined;
  return {
    ask(request) {
      beforeAsk();
      broker ??= operator.broker();
      return broker.ask(request);
    },
  };
}

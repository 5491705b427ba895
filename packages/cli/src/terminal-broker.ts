import { LineInputBroker } from "@runvil/plugin-user-input";
import type { InputBroker } from "@runvil/sdk";

/** The prompt written on stderr before each question when standard input is a terminal. */
export const TERMINAL_PROMPT = "> ";

/**
 * The operator's input broker of the real CLI: each answer is one line of standard input, and
 * when standard input is a terminal each wait shows {@link TERMINAL_PROMPT} on stderr. When
 * the input ends, every ask fails with `the operator's window closed`.
 */
export function terminalBroker(): InputBroker {
  const isTTY = process.stdin.isTTY === true;
  return new LineInputBroker({
    input: process.stdin,
    output: process.stderr,
    ...(isTTY ? { prompt: TERMINAL_PROMPT } : {}),
  });
}

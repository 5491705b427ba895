import type { ModelMessage } from "@runvil/sdk";
import { OMITTED_LINE } from "./compact-texts";

/** One record a summary replaces: its place in the history (from 1) and the record. */
export interface SummarisedRecord {
  readonly index: number;
  readonly record: ModelMessage;
}

/** The lines one record gives in a summary prompt (docs/design/compactors.md). */
export function summaryLines({ index, record }: SummarisedRecord): string[] {
  switch (record.role) {
    case "tool":
      return [`[${index}] tool ${record.toolName}: ${record.content}`];
    case "assistant": {
      const calls = record.toolCalls ?? [];
      const lines =
        calls.length > 0 && record.content === ""
          ? []
          : [`[${index}] assistant: ${record.content}`];
      for (const call of calls) {
        lines.push(`[${index}] assistant called ${call.name} ${JSON.stringify(call.arguments)}`);
      }
      return lines;
    }
    default:
      return [`[${index}] ${record.role}: ${record.content}`];
  }
}

/**
 * The text a summarising round sends as its one user record: the instructions, a blank line,
 * then one line per older record (an assistant's calls one line each). When the text would cost
 * more than `budget` tokens (half the model's window), its oldest lines give way to one
 * `[earlier records omitted]` line until it fits, or until no record line is left.
 */
export function summaryPrompt(
  instructions: string,
  records: readonly SummarisedRecord[],
  budget: number,
  tokens: (text: string) => number,
): string {
  const lines = records.flatMap(summaryLines);
  const join = (from: number): string => {
    const kept = lines.slice(from);
    const body = from > 0 ? [OMITTED_LINE, ...kept] : kept;
    return `${instructions}\n\n${body.join("\n")}`;
  };
  const whole = join(0);
  if (tokens(whole) <= budget) return whole;
  // Drop from the front: a binary search for the fewest lines to drop.
  let low = 1;
  let high = lines.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (tokens(join(mid)) <= budget) high = mid;
    else low = mid + 1;
  }
  return join(low);
}

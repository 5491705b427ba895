/**
 * The size budget one json.encode or json.encode_lines call spends while it walks
 * ("Size and nesting limits").
 */

import { type JsonEncodeLimits, jsonEncodeLimits } from "./limits";
import { JsonEncodeError, tooLargeMessage } from "./messages";

/**
 * Counts what one encode call has visited and throws {@link JsonEncodeError}
 * `{fn}: value is too large to encode` as soon as any count passes its limit:
 *
 * - `spendValue()` once per value visited: a table once per place it appears, each sealed view
 *   read through, each scalar (at most `maxValues`);
 * - `spendStringBytes(n)` for each string value and string key visited (at most
 *   `maxStringBytes`);
 * - `enterKeys(n)` / `leaveKeys(n)` around a table's values, with `n` its keys that are not
 *   numbers or booleans; the keys of every table on the current path add up (at most
 *   `maxPathKeys`).
 *
 * json.encode_lines shares one budget across all its items.
 */
export class JsonEncodeBudget {
  private readonly limits: JsonEncodeLimits;
  private readonly functionName: string;
  /** Values visited so far. */
  values = 0;
  /** String bytes visited so far. */
  stringBytes = 0;
  /** Non-number, non-boolean keys of the tables on the current path. */
  pathKeys = 0;

  constructor(limits: JsonEncodeLimits = jsonEncodeLimits(), functionName = "json.encode") {
    this.limits = limits;
    this.functionName = functionName;
  }

  /** Spends one value. */
  spendValue(): void {
    if (++this.values > this.limits.maxValues) this.refuse();
  }

  /** Spends `n` string bytes. */
  spendStringBytes(n: number): void {
    this.stringBytes += n;
    if (this.stringBytes > this.limits.maxStringBytes) this.refuse();
  }

  /** Adds a table's `n` string (or other non-number, non-boolean) keys to the current path. */
  enterKeys(n: number): void {
    this.pathKeys += n;
    if (this.pathKeys > this.limits.maxPathKeys) this.refuse();
  }

  /** Removes a table's keys from the path when the walk leaves it. */
  leaveKeys(n: number): void {
    this.pathKeys -= n;
  }

  private refuse(): never {
    throw new JsonEncodeError(tooLargeMessage(this.functionName));
  }
}

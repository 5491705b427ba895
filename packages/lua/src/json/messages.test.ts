import { describe, expect, it } from "vitest";
import { JsonEncodeBudget } from "./budget";
import {
  DEFAULT_LUA_MEMORY_BYTES,
  JSON_DECODE_LIMITS,
  JSON_MAX_INPUT_BYTES,
  jsonEncodeLimits,
} from "./limits";
import {
  ARRAY_HAS_METATABLE_MESSAGE,
  arrayExpectsTableMessage,
  cannotReadMessage,
  cannotReadPlaceholder,
  containsItselfMessage,
  DEBUG_PLACEHOLDERS,
  encodeLinesExpectsListMessage,
  encodeLinesGotKeyMessage,
  expectsStringMessage,
  hasKeyOfTypeMessage,
  JsonEncodeError,
  missingListItemMessage,
  mixesListItemsMessage,
  mustBeJsonDataMessage,
  nestedTooDeepMessage,
  optionDebugMustBeBooleanMessage,
  optionsMustBeTableMessage,
  tooLargeMessage,
  unknownOptionMessage,
} from "./messages";
import { formatJsonPath, formatJsonPathStep } from "./path";

describe("the chapter's messages", () => {
  it("builds the argument and option errors", () => {
    expect(expectsStringMessage("json.decode", "integer")).toBe(
      "json.decode expects a string, got integer",
    );
    expect(expectsStringMessage("json.decode_lines", "integer")).toBe(
      "json.decode_lines expects a string, got integer",
    );
    expect(arrayExpectsTableMessage("lightuserdata")).toBe(
      "json.array expects a table or no argument, got lightuserdata",
    );
    expect(ARRAY_HAS_METATABLE_MESSAGE).toBe("json.array: the table already has a metatable");
    expect(optionsMustBeTableMessage("json.encode", "integer")).toBe(
      "json.encode: options must be a table, got integer",
    );
    expect(unknownOptionMessage("json.encode_lines", "pretty")).toBe(
      "json.encode_lines: unknown option pretty",
    );
    expect(optionDebugMustBeBooleanMessage("json.encode", "integer")).toBe(
      "json.encode: option debug must be a boolean, got integer",
    );
    expect(encodeLinesExpectsListMessage("string")).toBe(
      "json.encode_lines expects a list, got string",
    );
    expect(encodeLinesGotKeyMessage("string")).toBe(
      "json.encode_lines expects a list, got a table with a string key",
    );
  });

  it("builds the refusals with their paths", () => {
    expect(mustBeJsonDataMessage("json.encode", "value", "userdata")).toBe(
      "json.encode: value must be JSON data, got userdata",
    );
    expect(mixesListItemsMessage("json.encode_lines", "value")).toBe(
      "json.encode_lines: value mixes list items and named keys",
    );
    expect(missingListItemMessage("json.encode", "value", 2)).toBe(
      "json.encode: value is missing list item [2]",
    );
    expect(hasKeyOfTypeMessage("json.encode", "value.t", "function")).toBe(
      "json.encode: value.t has a function key",
    );
    expect(containsItselfMessage("json.encode", "value.self")).toBe(
      "json.encode: value.self contains itself",
    );
    expect(nestedTooDeepMessage("json.encode", "value[1]")).toBe(
      "json.encode: value[1] is nested more than 127 levels deep",
    );
    expect(tooLargeMessage("json.encode_lines")).toBe(
      "json.encode_lines: value is too large to encode",
    );
    expect(cannotReadMessage("json.encode", "value", "sys is sealed")).toBe(
      "json.encode: value cannot be read (sys is sealed); copy the fields you need into a plain table",
    );
    expect(cannotReadMessage("json.encode", "value", undefined)).toBe(
      "json.encode: value cannot be read; copy the fields you need into a plain table",
    );
  });

  it("names debug placeholders", () => {
    expect(DEBUG_PLACEHOLDERS).toEqual({
      function: "[function]",
      thread: "[thread]",
      userdata: "[userdata]",
      cycle: "[cycle]",
      tooDeep: "[too deep]",
    });
    expect(cannotReadPlaceholder("sys is sealed")).toBe("[cannot read: sys is sealed]");
    expect(cannotReadPlaceholder(undefined)).toBe("[cannot read]");
  });
});

describe("paths", () => {
  it("adds .name for string keys and [k] for the others", () => {
    expect(formatJsonPath(["items", 2])).toBe("value.items[2]");
    expect(formatJsonPath([])).toBe("value");
    expect(formatJsonPath([2, "name"], "value")).toBe("value[2].name");
    expect(formatJsonPathStep(true)).toBe("[true]");
    expect(formatJsonPathStep(2.5)).toBe("[2.5]");
    expect(formatJsonPathStep(9223372036854775807n)).toBe("[9223372036854775807]");
  });

  it("shows string keys that are not valid UTF-8 with replacement characters", () => {
    expect(formatJsonPath([new Uint8Array([0x61, 0xff]), new Uint8Array([0x62])])).toBe(
      "value.a\ufffd.b",
    );
    expect(formatJsonPathStep("x\ud800")).toBe(".x\ufffd");
  });
});

describe("limits and budget", () => {
  it("derives the budget from the Lua memory limit", () => {
    expect(DEFAULT_LUA_MEMORY_BYTES).toBe(64 * 1024 * 1024);
    expect(jsonEncodeLimits()).toEqual({
      maxDepth: 127,
      maxValues: 8_388_608,
      maxStringBytes: 67_108_864,
      maxPathKeys: 100_000,
    });
    expect(jsonEncodeLimits(1000)).toEqual({
      maxDepth: 127,
      maxValues: 125,
      maxStringBytes: 1000,
      maxPathKeys: 100_000,
    });
    expect(JSON_DECODE_LIMITS).toEqual({ maxInputBytes: JSON_MAX_INPUT_BYTES, maxDepth: 127 });
    expect(JSON_MAX_INPUT_BYTES).toBe(8_388_608);
  });

  it("allows exactly each limit and refuses one more", () => {
    const budget = new JsonEncodeBudget(
      { maxDepth: 127, maxValues: 2, maxStringBytes: 5, maxPathKeys: 3 },
      "json.encode_lines",
    );
    budget.spendValue();
    budget.spendValue();
    expect(() => budget.spendValue()).toThrow(
      new JsonEncodeError("json.encode_lines: value is too large to encode"),
    );
    budget.spendStringBytes(5);
    expect(() => budget.spendStringBytes(1)).toThrow("value is too large to encode");
    budget.enterKeys(2);
    budget.leaveKeys(2);
    budget.enterKeys(3);
    expect(budget.pathKeys).toBe(3);
    expect(() => budget.enterKeys(1)).toThrow("json.encode_lines: value is too large to encode");
  });
});

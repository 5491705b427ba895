import { describe, expect, it } from "vitest";
import { contractEffect, contractEvent } from "../testing/journal-contract";
import {
  appendEffect,
  appendEvent,
  BatchTextError,
  EFFECT_FIELDS,
  readEffectBatch,
  readEventBatch,
  readFields,
} from "./batch-text";

describe("a group commit's text", () => {
  it("reads back its effects exactly, an origin shared with the effect before written once", () => {
    const other = { execution: "notes", chain: "1", entry: "1.0", section: "Other", task: "1" };
    const effects = [
      contractEffect(1),
      contractEffect(2, { output: encodeURIComponent("é") }),
      contractEffect(3, {
        kind: "tool",
        origin: other,
        output: undefined,
        failure: { type: "tool", message: "no\tsuch 4:tool ~" },
      }),
      contractEffect(4, { request: '{"text":"1:a~\\n"}', output: "" }),
    ];
    let text = "";
    let previous: (typeof effects)[number]["origin"] | undefined;
    for (const effect of effects) {
      text = appendEffect(text, effect, previous);
      previous = effect.origin;
    }
    // Written for effects 1 and 4, not for 2 (the same as 1's).
    expect(text.split(JSON.stringify(effects[0]?.origin)).length).toBe(3);
    expect(readEffectBatch(text)).toEqual(effects);
  });

  it("reads back its events exactly, newlines and all", () => {
    const events = [contractEvent(1), contractEvent(2, "1"), { ...contractEvent(3), line: "" }];
    const text = events.reduce(appendEvent, "");
    expect(readEventBatch(text)).toEqual(events);
  });

  it("keeps its lengths true for a lone surrogate, which SQLite gives back as U+FFFD", () => {
    const text = appendEvent("", { seq: 1, type: "log", chain: "\ud800", line: "a\udc00b" });
    expect(readEventBatch(text)).toEqual([
      { seq: 1, type: "log", chain: "\ufffd", line: "a\ufffdb" },
    ]);
  });

  it("refuses a damaged text, saying what is wrong and where", () => {
    const text = appendEffect("", contractEffect(1), undefined);
    expect(() => readEffectBatch(text.slice(0, -5))).toThrow(BatchTextError);
    expect(() => readFields("3:ab", 1)).toThrow("a field cut short at character 0");
    expect(() => readFields("x:ab", 1)).toThrow("a field without its length at character 0");
    expect(() => readFields("1:a1:b", 2 * EFFECT_FIELDS)).toThrow(
      "a record cut short at character 6",
    );
    expect(() => readEffectBatch(text.replace("5:store", "5:stone"))).toThrow(
      "an effect of kind stone",
    );
    expect(() => readEffectBatch(`1:x5:store~${text.slice(0, 0)}`)).toThrow(BatchTextError);
  });
});

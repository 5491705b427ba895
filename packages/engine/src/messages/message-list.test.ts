import { describe, expect, it } from "vitest";
import { EngineError } from "../lua";
import { MessageList, plainRecord } from "./message-list";
import {
  assistantRecord,
  contentBytes,
  recordSerial,
  systemRecord,
  toolRecord,
  userRecord,
} from "./message-record";

describe("MessageList", () => {
  it("starts empty and appends records in order", () => {
    const list = new MessageList();
    expect([list.length, list.bytes, list.at(1)]).toEqual([0, 0, undefined]);
    list.append(userRecord("héllo"));
    list.append(assistantRecord("hi"), systemRecord("s"));
    expect(list.records.map((r) => r.content)).toEqual(["héllo", "hi", "s"]);
    expect([list.length, list.bytes]).toEqual([3, 9]);
    expect(list.at(1)?.content).toBe("héllo");
    expect([list.at(0), list.at(4), list.at(1.5)]).toEqual([undefined, undefined, undefined]);
  });

  it("refuses an append past its byte cap, all or nothing", () => {
    const list = new MessageList(10);
    list.append(userRecord("12345"));
    let caught: unknown;
    try {
      list.append(userRecord("123"), userRecord("456"));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(EngineError);
    expect((caught as EngineError).kind).toBe("lua");
    expect((caught as EngineError).message).toBe(
      "messages: the conversation would exceed its 10-byte limit",
    );
    expect([list.length, list.bytes]).toEqual([1, 5]);
    list.append(userRecord("12345"));
    expect(list.bytes).toBe(10);
  });

  it("replaces every record under the same cap", () => {
    const list = new MessageList(4);
    list.append(userRecord("ab"));
    list.replace([userRecord("x"), userRecord("yz")]);
    expect(list.records.map((r) => r.content)).toEqual(["x", "yz"]);
    expect(() => list.replace([userRecord("abcde")])).toThrow(
      "messages: the conversation would exceed its 4-byte limit",
    );
    expect(list.length).toBe(2);
  });

  it("keeps a running count of a cost over its records, costing each appended record once", () => {
    const list = new MessageList();
    const costed: string[] = [];
    const cost = (record: { content: string }): number => {
      costed.push(record.content);
      return record.content.length;
    };
    expect(list.tokens(cost)).toBe(0);
    list.append(userRecord("abc"), assistantRecord("de"));
    expect(list.tokens(cost)).toBe(5);
    list.append(userRecord("f"));
    expect(list.tokens(cost)).toBe(6);
    expect(list.tokens(cost)).toBe(6);
    expect(costed).toEqual(["abc", "de", "f"]);
    list.replace([userRecord("xy")]);
    expect(list.tokens(cost)).toBe(2);
    expect(list.tokens((record) => record.content.length * 10)).toBe(20);
  });

  it("copies its records as plain JSON data with the Lua field names", () => {
    const list = new MessageList();
    list.append(
      userRecord("q"),
      assistantRecord("", [{ id: "c1", name: "grab", arguments: { v: [1, null] } }]),
      toolRecord("got", "c1", "grab"),
      assistantRecord("done"),
    );
    expect(list.copyPlain()).toEqual([
      { role: "user", content: "q" },
      {
        role: "assistant",
        content: "",
        tool_calls: [{ id: "c1", name: "grab", arguments: { v: [1, null] } }],
      },
      { role: "tool", content: "got", tool_call_id: "c1", name: "grab" },
      { role: "assistant", content: "done" },
    ]);
  });

  it("stages a Lua list's elements and hands them over once", () => {
    const list = new MessageList();
    list.beginStaging();
    list.stage({ notRecord: "number" });
    expect(list.takeStaged()).toEqual([{ notRecord: "number" }]);
    expect(list.takeStaged()).toEqual([]);
  });
});

describe("records", () => {
  it("are frozen ModelMessages", () => {
    const record = assistantRecord("", [{ id: "c1", name: "g", arguments: {} }]);
    expect(Object.isFrozen(record)).toBe(true);
    expect(Object.isFrozen(record.role === "assistant" ? record.toolCalls?.[0] : null)).toBe(true);
    expect(plainRecord(toolRecord("r", "c1", "g"))).toEqual({
      role: "tool",
      content: "r",
      tool_call_id: "c1",
      name: "g",
    });
  });

  it("keep one serial per object and cache their content bytes", () => {
    const a = userRecord("€");
    const b = userRecord("€");
    expect(recordSerial(a)).toBe(recordSerial(a));
    expect(recordSerial(a)).not.toBe(recordSerial(b));
    expect(contentBytes(a)).toBe(3);
  });
});

import type { JsonObject } from "@runvil/sdk";
import { describe, expect, it } from "vitest";
import {
  checkConversation,
  conversationOrderProblem,
  type StagedCall,
  type StagedRecord,
} from "./conversation-check";
import { assistantRecord, toolRecord, userRecord } from "./message-record";

/** A staged record with every field absent but the ones given. */
function staged(fields: Partial<Extract<StagedRecord, { role: unknown }>>): StagedRecord {
  return {
    role: undefined,
    content: undefined,
    toolCalls: undefined,
    toolCallId: undefined,
    name: undefined,
    ...fields,
  };
}

const call = (id: string, name = "grab", args: JsonObject = {}): StagedCall => ({
  id,
  name,
  arguments: args,
});

/** The problem text `checkConversation` gives, as `record {i} {problem}`. */
function problemOf(list: readonly StagedRecord[]): string {
  const checked = checkConversation(list);
  if (checked.ok) throw new Error("expected a problem");
  return `record ${checked.index} ${checked.problem}`;
}

describe("checkConversation", () => {
  it("builds records from well-formed elements, a tool round included", () => {
    const checked = checkConversation([
      staged({ role: "system", content: "be brief" }),
      staged({ role: "user", content: "hi" }),
      staged({ role: "assistant", content: "", toolCalls: [call("c1", "grab", { value: "a" })] }),
      staged({ role: "tool", content: "", toolCallId: "c1", name: "grab" }),
      staged({ role: "assistant", content: "done" }),
    ]);
    expect(checked).toEqual({
      ok: true,
      records: [
        { role: "system", content: "be brief" },
        { role: "user", content: "hi" },
        {
          role: "assistant",
          content: "",
          toolCalls: [{ id: "c1", name: "grab", arguments: { value: "a" } }],
        },
        { role: "tool", content: "", toolCallId: "c1", toolName: "grab" },
        { role: "assistant", content: "done" },
      ],
    });
  });

  it("accepts an empty list (a restore to nothing)", () => {
    expect(checkConversation([])).toEqual({ ok: true, records: [] });
  });

  it("treats an empty tool_calls list as no calls", () => {
    const checked = checkConversation([staged({ role: "assistant", content: "x", toolCalls: [] })]);
    expect(checked).toEqual({ ok: true, records: [{ role: "assistant", content: "x" }] });
  });

  it.each<[string, StagedRecord[], string]>([
    ["a value that is no record", [{ notRecord: "string" }], "record 1 is a string, not a record"],
    [
      "a role that is not a string",
      [staged({ role: { type: "integer" }, content: "x" })],
      "record 1 has no role string; a record's role is system, user, assistant or tool",
    ],
    [
      "a missing role",
      [staged({ content: "x" })],
      "record 1 has no role string; a record's role is system, user, assistant or tool",
    ],
    [
      "an unknown role",
      [staged({ role: "bot", content: "x" })],
      `record 1 has role "bot"; a record's role is system, user, assistant or tool`,
    ],
    ["no content", [staged({ role: "user" })], "record 1 has no content string"],
    [
      "content that is not a string",
      [staged({ role: "user", content: { type: "table" } })],
      "record 1 has no content string",
    ],
    [
      "content that is not UTF-8",
      [staged({ role: "user", content: { invalidUtf8: true } })],
      "record 1 has content that is not valid UTF-8",
    ],
    [
      "an empty user record",
      [staged({ role: "user", content: "" })],
      "record 1 has empty content; only an assistant record with tool calls and a tool record may be empty",
    ],
    [
      "an empty assistant record without calls",
      [staged({ role: "user", content: "q" }), staged({ role: "assistant", content: "" })],
      "record 2 has empty content; only an assistant record with tool calls and a tool record may be empty",
    ],
    [
      "tool_calls on a user record",
      [staged({ role: "user", content: "q", toolCalls: [] })],
      "record 1 has tool_calls, but only an assistant record makes tool calls",
    ],
    [
      "tool_calls that are not a list",
      [staged({ role: "assistant", content: "q", toolCalls: "not_list" })],
      "record 1 has tool_calls that is not a list of calls",
    ],
    [
      "a call that is not a table",
      [staged({ role: "assistant", content: "", toolCalls: [call("c1"), "not_table"] })],
      "record 1 has tool call 2 that is not a table of id, name and arguments",
    ],
    [
      "a call with a blank id",
      [staged({ role: "assistant", content: "", toolCalls: [call("  ")] })],
      "record 1 has tool call 1 with no id",
    ],
    [
      "a call with an id that is not a string",
      [
        staged({
          role: "assistant",
          content: "",
          toolCalls: [{ id: { type: "integer" }, name: "g", arguments: {} }],
        }),
      ],
      "record 1 has tool call 1 with no id",
    ],
    [
      "a call with no name",
      [
        staged({
          role: "assistant",
          content: "",
          toolCalls: [{ id: "c1", name: undefined, arguments: {} }],
        }),
      ],
      `record 1 has tool call "c1" with no name`,
    ],
    [
      "a call whose arguments are not an object",
      [
        staged({
          role: "assistant",
          content: "",
          toolCalls: [{ id: "c1", name: "g", arguments: null }],
        }),
      ],
      `record 1 has tool call "c1" whose arguments are not a JSON object`,
    ],
    [
      "a repeated call id",
      [staged({ role: "assistant", content: "", toolCalls: [call("c1"), call("c1")] })],
      `record 1 has tool call id "c1" twice`,
    ],
    [
      "a tool_call_id on a user record",
      [staged({ role: "user", content: "q", toolCallId: "c1" })],
      "record 1 has a tool_call_id, but only a tool record answers a call",
    ],
    [
      "a name on an assistant record",
      [staged({ role: "assistant", content: "a", name: "x" })],
      "record 1 has a name, but only a tool record names the call it answers",
    ],
    [
      "a tool record with no tool_call_id",
      [staged({ role: "tool", content: "r", name: "grab" })],
      "record 1 is a tool record with no tool_call_id",
    ],
    [
      "a tool record with no name",
      [staged({ role: "tool", content: "r", toolCallId: "c1" })],
      "record 1 is a tool record with no name",
    ],
    [
      "a tool record that answers no call",
      [
        staged({ role: "user", content: "q" }),
        staged({ role: "tool", content: "r", toolCallId: "c1", name: "g" }),
      ],
      "record 2 is a tool record that answers no call",
    ],
    [
      "a call left unanswered before the next turn",
      [
        staged({ role: "assistant", content: "", toolCalls: [call("c1"), call("c2")] }),
        staged({ role: "tool", content: "r", toolCallId: "c1", name: "grab" }),
        staged({ role: "user", content: "q" }),
      ],
      `record 1 leaves call "c2" unanswered`,
    ],
    [
      "a call left unanswered at the end",
      [
        staged({ role: "user", content: "q" }),
        staged({ role: "assistant", content: "", toolCalls: [call("c1")] }),
      ],
      `record 2 leaves call "c1" unanswered`,
    ],
    [
      "tool records out of call order",
      [
        staged({ role: "assistant", content: "", toolCalls: [call("c1"), call("c2")] }),
        staged({ role: "tool", content: "r", toolCallId: "c2", name: "grab" }),
      ],
      `record 2 answers call "c2" before call "c1"; tool records follow the order of the calls`,
    ],
    [
      "a tool record for a call the assistant did not make",
      [
        staged({ role: "assistant", content: "", toolCalls: [call("c1")] }),
        staged({ role: "tool", content: "r", toolCallId: "zz", name: "grab" }),
      ],
      `record 2 answers call "zz", which the assistant record before it did not make`,
    ],
  ])("refuses %s", (_, list, message) => {
    expect(problemOf(list)).toBe(message);
  });

  it("reports the first problem, shape before order", () => {
    expect(
      problemOf([
        staged({ role: "tool", content: "r", toolCallId: "c1", name: "g" }),
        staged({ role: "bot", content: "x" }),
      ]),
    ).toBe(`record 2 has role "bot"; a record's role is system, user, assistant or tool`);
  });
});

describe("conversationOrderProblem", () => {
  it("passes records in tool-round order and names the first break", () => {
    const calls = [
      { id: "c1", name: "a", arguments: {} },
      { id: "c2", name: "b", arguments: {} },
    ];
    const round = [
      userRecord("q"),
      assistantRecord("", calls),
      toolRecord("x", "c1", "a"),
      toolRecord("y", "c2", "b"),
      assistantRecord("done"),
    ];
    expect(conversationOrderProblem(round)).toBeUndefined();
    expect(conversationOrderProblem(round.slice(0, 3))).toEqual({
      index: 2,
      problem: `leaves call "c2" unanswered`,
    });
  });
});

import { describe, expect, it } from "vitest";
import { assistantRecord, systemRecord, toolRecord, userRecord } from "../messages/message-record";
import { estimateRequest, recordTokens, textTokens, toolTokens } from "./estimate";

describe("the precheck estimate", () => {
  it("costs a text ceil(utf8 bytes / 4)", () => {
    expect([textTokens(""), textTokens("abc"), textTokens("abcd"), textTokens("abcde")]).toEqual([
      0, 1, 1, 2,
    ]);
    expect(textTokens("éé")).toBe(1);
    expect(textTokens("€€")).toBe(2);
  });

  it("costs a record its content + 4, a call its name and arguments, a tool record its name and id", () => {
    expect(recordTokens(userRecord("abcdefgh"))).toBe(6);
    expect(recordTokens(systemRecord("x"))).toBe(5);
    const call = assistantRecord("", [{ id: "c1", name: "grab", arguments: { value: "b" } }]);
    // content 0 + 4, name 1, {"value":"b"} 13 bytes = 4
    expect(recordTokens(call)).toBe(9);
    // content 2 bytes = 1 + 4, name "grab" 1, id "call_1" 2
    expect(recordTokens(toolRecord("ok", "call_1", "grab"))).toBe(8);
  });

  it("costs a tool the compact JSON of its name, description and parameters + 8", () => {
    const tool = { name: "grab", description: "Grab", parameters: { type: "object" } };
    const json = JSON.stringify(tool);
    expect(toolTokens(tool)).toBe(Math.ceil(json.length / 4) + 8);
  });

  it("sums the records, the system text + 4 and the tools", () => {
    const tool = { name: "t", description: "", parameters: {} };
    const records = [userRecord("abcd"), assistantRecord("abcd")];
    expect(estimateRequest({ records, tools: [] })).toBe(10);
    expect(estimateRequest({ system: "abcdefgh", records, tools: [] })).toBe(16);
    expect(estimateRequest({ records: [], tools: [tool, tool] })).toBe(2 * toolTokens(tool));
  });

  it("caches each record's cost: the same object costs the same", () => {
    const record = userRecord("x".repeat(1000));
    expect(recordTokens(record)).toBe(254);
    expect(recordTokens(record)).toBe(254);
  });
});

import type { ModelMessage } from "@runvil/sdk";
import { describe, expect, it } from "vitest";
import { summaryLines, summaryPrompt } from "./summary-prompt";

const bytes = (text: string): number => new TextEncoder().encode(text).length;
const tokens = (text: string): number => Math.ceil(bytes(text) / 4);

const user: ModelMessage = {
  role: "user",
  content: "Find the latest Lua release and quote its announcement.",
};
const calls: ModelMessage = {
  role: "assistant",
  content: "",
  toolCalls: [
    { id: "c1", name: "web_search", arguments: { query: "lua" } },
    { id: "c2", name: "grab", arguments: {} },
  ],
};
const tool: ModelMessage = {
  role: "tool",
  content: "1. Lua 5.4",
  toolCallId: "c1",
  toolName: "web_search",
};
const said: ModelMessage = { role: "assistant", content: "Looking.", toolCalls: [] };

describe("summaryLines", () => {
  it("writes each record as [i] role: content", () => {
    expect(summaryLines({ index: 2, record: user })).toEqual([
      "[2] user: Find the latest Lua release and quote its announcement.",
    ]);
    expect(summaryLines({ index: 5, record: said })).toEqual(["[5] assistant: Looking."]);
  });

  it("writes an assistant's calls one line each, and a tool record with its name", () => {
    expect(summaryLines({ index: 3, record: calls })).toEqual([
      '[3] assistant called web_search {"query":"lua"}',
      "[3] assistant called grab {}",
    ]);
    expect(summaryLines({ index: 4, record: tool })).toEqual(["[4] tool web_search: 1. Lua 5.4"]);
    expect(summaryLines({ index: 1, record: { ...calls, content: "Let me look." } })[0]).toBe(
      "[1] assistant: Let me look.",
    );
  });
});

describe("summaryPrompt", () => {
  const records = [
    { index: 1, record: user },
    { index: 2, record: calls },
    { index: 3, record: tool },
  ];

  it("sends the instructions, a blank line, then the lines in order", () => {
    expect(summaryPrompt("Summarise.", records, 1000, tokens)).toBe(
      [
        "Summarise.",
        "",
        "[1] user: Find the latest Lua release and quote its announcement.",
        '[2] assistant called web_search {"query":"lua"}',
        "[2] assistant called grab {}",
        "[3] tool web_search: 1. Lua 5.4",
      ].join("\n"),
    );
  });

  it("lets the oldest lines give way until the text fits the budget", () => {
    const full = summaryPrompt("Summarise.", records, 1000, tokens);
    const budget = tokens(full) - 1;
    const text = summaryPrompt("Summarise.", records, budget, tokens);
    expect(tokens(text)).toBeLessThanOrEqual(budget);
    expect(text).toBe(
      [
        "Summarise.",
        "",
        "[earlier records omitted]",
        '[2] assistant called web_search {"query":"lua"}',
        "[2] assistant called grab {}",
        "[3] tool web_search: 1. Lua 5.4",
      ].join("\n"),
    );
  });

  it("keeps only the omitted line when no record line fits", () => {
    expect(summaryPrompt("Summarise.", records, 1, tokens)).toBe(
      "Summarise.\n\n[earlier records omitted]",
    );
  });
});

import { describe, expect, it } from "vitest";
import { errorText, plainOutput, structuredOutput } from "./call-output";

describe("plainOutput", () => {
  it("joins the content blocks with a line break, other kinds as a bracketed note", () => {
    expect(
      plainOutput({
        content: [
          { type: "text", text: "one" },
          { type: "image", data: "AAAA", mimeType: "image/png" },
          { type: "audio", data: "AAAA", mimeType: "audio/wav" },
          { type: "resource_link", uri: "file:///a.txt", name: "a" },
          { type: "resource", resource: { uri: "file:///b.txt", text: "inline text" } },
          { type: "resource", resource: { uri: "file:///c.bin", blob: "AAAA" } },
        ],
      }),
    ).toBe(
      "one\n[image (image/png) omitted]\n[audio (audio/wav) omitted]\n[resource link: file:///a.txt]\ninline text\n[resource file:///c.bin omitted]",
    );
  });

  it("gives structured content as JSON text when there are no blocks, else the empty string", () => {
    expect(plainOutput({ content: [], structuredContent: { a: 1 } })).toBe('{"a":1}');
    expect(plainOutput({ content: [] })).toBe("");
  });
});

describe("structuredOutput and errorText", () => {
  it("reads the structured content, and an error's text blocks", () => {
    expect(structuredOutput({ content: [], structuredContent: { a: [1] } })).toEqual({ a: [1] });
    expect(structuredOutput({ content: [] })).toBeUndefined();
    expect(
      errorText({
        content: [
          { type: "text", text: "bad" },
          { type: "image", data: "", mimeType: "image/png" },
          { type: "text", text: "path" },
        ],
        isError: true,
      }),
    ).toBe("bad path");
  });
});

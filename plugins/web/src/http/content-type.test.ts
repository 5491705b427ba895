import { describe, expect, it } from "vitest";
import { bodyKind, parseContentType } from "./content-type";

describe("parseContentType", () => {
  it("reads the media type and charset in lower case", () => {
    expect(parseContentType('Text/HTML; Charset="UTF-8"')).toEqual({
      mediaType: "text/html",
      charset: "utf-8",
    });
    expect(parseContentType("application/json")).toEqual({
      mediaType: "application/json",
      charset: undefined,
    });
  });

  it("ignores other parameters and an empty charset", () => {
    expect(parseContentType("text/plain; format=flowed; charset=")).toEqual({
      mediaType: "text/plain",
      charset: undefined,
    });
  });

  it("gives an empty media type for a missing header", () => {
    expect(parseContentType(null)).toEqual({ mediaType: "", charset: undefined });
  });
});

describe("bodyKind", () => {
  it.each([
    ["text/html", "html"],
    ["application/xhtml+xml", "html"],
    ["application/json", "json"],
    ["application/ld+json", "json"],
    ["text/plain", "text"],
    ["text/markdown", "text"],
    ["text/csv", "text"],
    ["application/xml", "text"],
    ["application/rss+xml", "text"],
    ["application/javascript", "text"],
    ["application/yaml", "text"],
    ["", "unknown"],
    ["image/png", "binary"],
    ["application/pdf", "binary"],
    ["application/octet-stream", "binary"],
    ["video/mp4", "binary"],
  ] as const)("%s is %s", (mediaType, kind) => {
    expect(bodyKind(mediaType)).toBe(kind);
  });
});

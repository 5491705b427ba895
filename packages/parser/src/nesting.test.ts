import { describe, expect, it } from "vitest";
import { Lines } from "./lines";
import { containerDepthEstimate, findDeepNesting, MAX_CONTAINER_DEPTH } from "./nesting";

describe("containerDepthEstimate", () => {
  it("is 0 for lines that open no container", () => {
    expect(containerDepthEstimate("plain text")).toBe(0);
    expect(containerDepthEstimate("        indented code")).toBe(0);
    expect(containerDepthEstimate("-- a Lua comment")).toBe(0);
    expect(
      containerDepthEstimate("* * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * * *"),
    ).toBe(0);
  });

  it("counts list markers and blockquote markers", () => {
    expect(containerDepthEstimate("- item")).toBe(1);
    expect(containerDepthEstimate("> > - 1. item")).toBe(4);
    expect(containerDepthEstimate(">>>quote")).toBe(3);
    expect(containerDepthEstimate("12) item")).toBe(1);
    expect(containerDepthEstimate("-")).toBe(1);
  });

  it("adds half the indentation of a line that opens a container", () => {
    expect(containerDepthEstimate("      - item")).toBe(4);
    expect(containerDepthEstimate("\t- item")).toBe(3);
  });
});

describe("findDeepNesting", () => {
  it("finds the first line nested too deep", () => {
    const ok = `${"> ".repeat(MAX_CONTAINER_DEPTH)}x`;
    const deep = `${"- ".repeat(MAX_CONTAINER_DEPTH + 1)}x`;
    expect(findDeepNesting(new Lines(`${ok}\n${deep}\n`), 1)).toBe(2);
    expect(findDeepNesting(new Lines(`${ok}\n`), 1)).toBeUndefined();
  });

  it("starts at the given line", () => {
    const deep = `${">".repeat(40)} x`;
    expect(findDeepNesting(new Lines(`${deep}\nok\n`), 2)).toBeUndefined();
  });
});

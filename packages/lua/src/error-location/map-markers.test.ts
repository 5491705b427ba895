import { describe, expect, it } from "vitest";
import { mapChunkMarkers } from "./map-markers";

const blocks = new Map<number, string>([
  [12, "section `Check` prologue"],
  [20, "section `lib` prologue"],
  [50, "section `lib` prologue"],
]);
const locate = (line: number) => blocks.get(line);

describe("mapChunkMarkers", () => {
  it("maps a block marker to its label and absolute line (N + L - 1)", () => {
    const out = mapChunkMarkers('[string "line 12"]:3: the answer must be yes', locate);
    expect(out.text).toBe("section `Check` prologue:14: the answer must be yes");
    expect(out.first).toEqual({ label: "section `Check` prologue", line: 14 });
  });

  it("maps the first line of a block to the block's first line", () => {
    expect(mapChunkMarkers('[string "line 50"]:1: x', locate).text).toBe(
      "section `lib` prologue:50: x",
    );
  });

  it("maps every marker and reports the first one rewritten", () => {
    const out = mapChunkMarkers(
      '[string "line 99"]:1: a [string "line 20"]:2: b [string "line 12"]:1: c',
      locate,
    );
    expect(out.text).toBe(
      '[string "line 99"]:1: a section `lib` prologue:21: b section `Check` prologue:12: c',
    );
    expect(out.first).toEqual({ label: "section `lib` prologue", line: 21 });
  });

  it("maps the <chunk:line> form of a function in a traceback", () => {
    const out = mapChunkMarkers('\t[C]: in function <[string "line 20"]:1>', locate);
    expect(out.text).toBe("\t[C]: in function <section `lib` prologue:20>");
  });

  it("leaves markers of blocks the VM does not own and text with no marker unchanged", () => {
    const raw = '[string "line 7"]:1: raw';
    expect(mapChunkMarkers(raw, locate)).toEqual({ text: raw, first: undefined });
    expect(mapChunkMarkers("no marker here", locate)).toEqual({
      text: "no marker here",
      first: undefined,
    });
  });

  it("never maps an already mapped line a second time", () => {
    const once = mapChunkMarkers('[string "line 50"]:2: later fault', locate).text;
    expect(once).toBe("section `lib` prologue:51: later fault");
    expect(mapChunkMarkers(once, locate).text).toBe(once);
  });
});

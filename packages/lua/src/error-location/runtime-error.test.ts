import { describe, expect, it } from "vitest";
import { formatUncaughtRuntimeError } from "./runtime-error";

const blocks = new Map<number, string>([
  [13, "section `Main` prologue"],
  [20, "section `lib` prologue"],
]);
const locate = (line: number) => blocks.get(line);

describe("formatUncaughtRuntimeError", () => {
  it("doubles the location as the chapter's library example shows", () => {
    const traceback = [
      "stack traceback:",
      "\t[C]: in function 'error'",
      "\t[string \"line 20\"]:1: in function 'boom'",
      '\t[string "line 13"]:2: in main chunk',
    ].join("\n");
    const text = formatUncaughtRuntimeError('[string "line 20"]:1: deep fault', traceback, locate);
    expect(text.split("\n")[0]).toBe(
      "section `lib` prologue:20: runtime error: section `lib` prologue:20: deep fault",
    );
    expect(text).toContain("section `lib` prologue:20: in function 'boom'");
    expect(text).toContain("section `Main` prologue:14: in main chunk");
    expect(text).not.toContain('[string "');
  });

  it("passes text that names no block of the VM through unchanged", () => {
    expect(formatUncaughtRuntimeError("not enough memory", undefined, locate)).toBe(
      "not enough memory",
    );
  });

  it("keeps a child's already mapped line when a parent frame re-raises it", () => {
    const text = formatUncaughtRuntimeError(
      '[string "line 13"]:12: section `lib` prologue:51: deep fault',
      "",
      locate,
    );
    expect(text).toBe(
      "section `Main` prologue:24: runtime error: section `Main` prologue:24: section `lib` prologue:51: deep fault",
    );
  });
});

import { describe, expect, it } from "vitest";
import { checkYaml, REQUIRED_KEYS } from "./test-support";

const NOT_STRING = "expected a Pack id, such as `web`, or vendor/name, such as `acme/web`";
const CHARSET = "segments may contain only lowercase ASCII letters, digits, '-', '_', '.'";

function usesOf(...lines: string[]) {
  const result = checkYaml(...REQUIRED_KEYS, ...lines);
  if (!result.ok) throw new Error(result.error.message);
  return result.value.uses.map((entry) => `${entry.fullName}@${entry.line}:${entry.column}`);
}

function errorOf(...lines: string[]) {
  const result = checkYaml(...REQUIRED_KEYS, ...lines);
  if (result.ok) throw new Error("expected an error");
  return result.error;
}

describe("uses:", () => {
  it("reads a flow list in order", () => {
    expect(usesOf("uses: [web, user-input]")).toEqual(["runvil/web@5:8", "runvil/user-input@5:13"]);
  });

  it("reads a block sequence in order", () => {
    expect(usesOf("uses:", "  - acme/poop", "  - web")).toEqual([
      "acme/poop@6:5",
      "runvil/web@7:5",
    ]);
  });

  it("takes a fully qualified name and an empty list", () => {
    expect(usesOf("uses: [runvil/web]")).toEqual(["runvil/web@5:8"]);
    expect(usesOf("uses: []")).toEqual([]);
  });

  it("refuses a number entry, naming its line and column at the end", () => {
    expect(errorOf("uses: [web, 42]")).toEqual({
      kind: "Frontmatter",
      message: `invalid frontmatter: uses entry 2 is a number: ${NOT_STRING} (line 5, column 13)`,
      line: 5,
      column: 13,
    });
  });

  it("refuses a map of settings as an entry", () => {
    expect(errorOf("uses:", "  - web: { provider: fast }")).toEqual({
      kind: "Frontmatter",
      message: `invalid frontmatter: uses entry 1 is a mapping: ${NOT_STRING} (line 6, column 5)`,
      line: 6,
      column: 5,
    });
  });

  it("refuses an empty entry", () => {
    expect(errorOf("uses:", "  -", "  - web").message).toBe(
      `invalid frontmatter: uses entry 1 is null: ${NOT_STRING} (line 6, column 4)`,
    );
  });

  it.each([
    [
      "acme/web/fetch",
      "a uses entry is a Pack id, such as `web`, or vendor/name, such as `acme/web`",
    ],
    ["Web", CHARSET],
    ["web@1.0", CHARSET],
    ["Web/", CHARSET],
    ["web/", "segments must not be empty"],
    ["acme//web", "segments must not be empty"],
  ])("refuses the malformed entry %s with the chapter's reason", (entry, reason) => {
    expect(errorOf(`uses: [${entry}]`)).toEqual({
      kind: "Frontmatter",
      message: `invalid frontmatter: invalid uses entry \`${entry}\`: ${reason} (line 5, column 8)`,
      line: 5,
      column: 8,
    });
  });

  it("quotes a quoted entry as its text", () => {
    expect(errorOf("uses:", '  - "Web"').message).toBe(
      `invalid frontmatter: invalid uses entry \`Web\`: ${CHARSET} (line 6, column 5)`,
    );
  });

  it.each([
    ["[web, acme/web]", "web"],
    ["[web, runvil/web]", "web"],
    ["[web, user-input, user-input, web]", "user-input"],
  ])("refuses the repeated Pack id in %s with no line or column", (list, id) => {
    expect(errorOf(`uses: ${list}`)).toEqual({
      kind: "Frontmatter",
      message: `invalid frontmatter: Pack id ${id} is declared more than once under uses`,
    });
  });

  it("reports a malformed entry before a repeat", () => {
    expect(errorOf("uses: [web, web, Web]").message).toBe(
      `invalid frontmatter: invalid uses entry \`Web\`: ${CHARSET} (line 5, column 18)`,
    );
  });

  it("refuses uses: that is not a list", () => {
    expect(errorOf("uses: web")).toEqual({
      kind: "Frontmatter",
      message:
        "invalid frontmatter: `uses` must be a list of Pack ids, such as `uses: [web]`, found a string (line 5)",
      line: 5,
    });
    expect(errorOf("uses:").message).toBe(
      "invalid frontmatter: `uses` must be a list of Pack ids, such as `uses: [web]`, found null (line 5)",
    );
  });
});

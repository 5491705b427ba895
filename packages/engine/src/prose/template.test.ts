import { describe, expect, it } from "vitest";
import { parseProseTemplate, substitutionMessage, templateForLua } from "./template";

describe("parseProseTemplate", () => {
  it("splits prose at placeholders, literals at even indexes", () => {
    const template = parseProseTemplate("Say {{ var.greeting }} to {{name}}.");
    expect(template).toEqual([
      "Say ",
      { path: ["var", "greeting"], text: "{{ var.greeting }}" },
      " to ",
      { path: ["name"], text: "{{ name }}" },
      ".",
    ]);
    expect(templateForLua(template)).toEqual(["Say ", ["var", "greeting"], " to ", ["name"], "."]);
  });

  it("keeps text that is not a placeholder as typed", () => {
    expect(parseProseTemplate("{{ 1 + 1 }} {{}} { {x} } {{ a..b }}")).toEqual([
      "{{ 1 + 1 }} {{}} { {x} } {{ a..b }}",
    ]);
    expect(parseProseTemplate("")).toEqual([]);
    expect(parseProseTemplate("plain")).toEqual(["plain"]);
  });

  it("starts and ends with literal text", () => {
    expect(parseProseTemplate("{{ a }}")).toEqual(["", { path: ["a"], text: "{{ a }}" }, ""]);
  });
});

describe("substitutionMessage", () => {
  it("words each substitution kind", () => {
    expect(substitutionMessage("MissingKey", "{{ sys.model }}")).toBe("missing {{ sys.model }}");
    expect(substitutionMessage("NullValue", "{{ nothing }}")).toBe("missing {{ nothing }}");
    expect(substitutionMessage("Recursive", "{{ prose }}")).toBe(
      "prose cannot be rendered inside prose: {{ prose }}",
    );
    expect(substitutionMessage("NotText", "{{ log }}", "function")).toBe(
      "{{ log }} cannot be rendered: got function",
    );
  });
});

import { describe, expect, it } from "vitest";
import { createPromptParser } from "../parse";
import { checkYaml, expectError, expectPrompt, fakeLua, REQUIRED_KEYS } from "../test-support";
import { MAX_ALIAS_EXPANSION } from "../yaml-nodes";

/**
 * Attack class: a YAML alias bomb in the frontmatter (docs/security.md). Aliases may add at most
 * MAX_ALIAS_EXPANSION values and characters to the frontmatter's data; every use of an alias is
 * measured before it is expanded, so a bomb is refused without being expanded.
 */

/** `levels` anchors, each a list of nine aliases of the one before: 9^levels `lol`s. */
function laughs(levels: number): string[] {
  const lines = ['      a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  const names = "bcdefghijklmnop";
  for (let i = 0; i < levels - 1; i++) {
    const name = names[i];
    const previous = i === 0 ? "a" : names[i - 1];
    lines.push(`      ${name}: &${name} [${Array(9).fill(`*${previous}`).join(",")}]`);
  }
  return lines;
}

function prompt(...frontmatter: string[]): string {
  return [
    "---",
    ...frontmatter,
    "---",
    "# Bomb",
    "",
    "## Go",
    "",
    "```lua",
    "return 1",
    "```",
    "",
  ].join("\n");
}

const parse = createPromptParser(fakeLua);

describe("security: YAML alias bomb in the frontmatter", () => {
  it("refuses a billion laughs under args.topic.default, naming the alias and its line", () => {
    // The reproduction of issue 11: `runvil check` and `runvil run` spun for 853 s at 4.2 GB.
    const text = prompt(...REQUIRED_KEYS, "args:", "  topic:", "    default:", ...laughs(9));
    const error = expectError(parse(text, { path: "bomb.md" }));
    // a = 37 units, b = 334, c = 3007, d = 27064: the lists b-d spend 30402 and the third *d
    // in e passes 100000.
    expect(error).toEqual({
      kind: "Frontmatter",
      message: `invalid frontmatter: \`args.topic.default.e[2]\` is an alias that takes the frontmatter past ${MAX_ALIAS_EXPANSION} values and characters of aliased data (line 12)`,
      line: 12,
      path: "bomb.md",
    });
  });

  it("counts each role's use of a model list given as an alias", () => {
    // A 2,000-id list costs 6,001 units at each use: the seventeenth use passes 100,000.
    const ids = Array(2000).fill("m1").join(", ");
    const lines = [...REQUIRED_KEYS, "models:", `  r0: { model: &m [${ids}] }`];
    for (let i = 1; i <= 16; i++) lines.push(`  r${i}: { model: *m }`);
    expect(checkYaml(...lines).ok).toBe(true);
    lines.push("  r17: { model: *m }");
    const result = checkYaml(...lines);
    expect(!result.ok && result.error).toEqual({
      kind: "Frontmatter",
      message: `invalid frontmatter: \`models.r17.model\` is an alias that takes the frontmatter past ${MAX_ALIAS_EXPANSION} values and characters of aliased data (line 23)`,
      line: 23,
    });
  });

  it("counts each use of role settings given as an alias", () => {
    const ids = Array(2000).fill("m1").join(", ");
    const lines = [...REQUIRED_KEYS, "models:", `  r0: &s { model: [${ids}] }`];
    for (let i = 1; i <= 17; i++) lines.push(`  r${i}: *s`);
    const result = checkYaml(...lines);
    expect(!result.ok && result.error.message).toMatch(
      /^invalid frontmatter: `models\.r\d+` is an alias that takes the frontmatter past/,
    );
  });

  it("still reads a smaller structure that aliases share", () => {
    // 9^4 = 6561 strings: 30402 units of aliased data, under the budget.
    const result = checkYaml(...REQUIRED_KEYS, "args:", "  topic:", "    default:", ...laughs(4));
    expect(result.ok).toBe(true);
    const topic = result.ok ? result.value.args[0]?.default : undefined;
    expect(JSON.stringify(topic).match(/lol/g)?.length).toBe(9 + 9 * 9 + 9 ** 3 + 9 ** 4);
  });

  it("counts every use of settings given as an alias", () => {
    // Settings of 10,010 units (a 10,000-character default), used by ten more args.
    const big = "x".repeat(10_000);
    const lines = [...REQUIRED_KEYS, "args:", `  first: &s { default: "${big}" }`];
    for (let i = 0; i < 9; i++) lines.push(`  arg${i}: *s`);
    expect(checkYaml(...lines).ok).toBe(true);
    lines.push("  last: *s");
    const result = checkYaml(...lines);
    expect(!result.ok && result.error.message).toBe(
      `invalid frontmatter: \`args.last\` is an alias that takes the frontmatter past ${MAX_ALIAS_EXPANSION} values and characters of aliased data (line 16)`,
    );
  });

  it("refuses an alias to a long string used too often", () => {
    const lines = [...REQUIRED_KEYS, "args:", "  topic:", "    default:"];
    lines.push(`      text: &t "${"y".repeat(10_000)}"`);
    lines.push(`      copies: [${Array(200).fill("*t").join(", ")}]`);
    const result = checkYaml(...lines);
    // Each *t costs 10,001: the tenth passes 100,000.
    expect(!result.ok && result.error.message).toMatch(
      /`args\.topic\.default\.copies\[9\]` is an alias that takes the frontmatter past/,
    );
  });

  it("stops a self-referencing alias that branches, before expanding it", () => {
    const result = checkYaml(
      ...REQUIRED_KEYS,
      "args:",
      "  topic:",
      "    default: &w { a: *w, b: *w, c: *w }",
    );
    expect(!result.ok && result.error.message).toBe(
      "invalid frontmatter: `args.topic.default.a` is nested more than 64 levels deep (line 7)",
    );
  });

  it("resolves many aliases in one pass over the document", () => {
    // 40,000 aliases: resolving each by walking the document again would be quadratic.
    const many = Array(40_000).fill("*n").join(",");
    const result = checkYaml(
      ...REQUIRED_KEYS,
      "args:",
      "  topic:",
      `    default: { n: &n 1, all: [${many}] }`,
    );
    expect(result.ok).toBe(true);
    const topic = result.ok ? result.value.args[0]?.default : undefined;
    expect((topic as { all: number[] }).all.length).toBe(40_000);
  });

  it("reads a prompt whose aliases stay within the budget", () => {
    const text = prompt(
      ...REQUIRED_KEYS,
      "models:",
      "  writer: &settings { temperature: 0 }",
      "  critic: *settings",
    );
    const models = expectPrompt(parse(text)).frontmatter.models;
    expect(models.map((role) => [role.label, role.line])).toEqual([
      ["writer", 6],
      ["critic", 7],
    ]);
    expect(models[1]?.settings).toEqual(models[0]?.settings);
  });
});

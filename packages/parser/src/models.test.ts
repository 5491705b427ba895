import { describe, expect, it } from "vitest";
import { checkYaml, REQUIRED_KEYS } from "./test-support";
import type { RoleSettings } from "./types";

function errorOf(...lines: string[]) {
  const result = checkYaml(...REQUIRED_KEYS, ...lines);
  if (result.ok) throw new Error("expected an error");
  return result.error;
}

/** The message of the error for `writer` with these settings lines (role on line 6). */
function messageOf(...settings: string[]): string {
  return errorOf("models:", "  writer:", ...settings.map((line) => `    ${line}`)).message;
}

function settingsOf(...settings: string[]): RoleSettings {
  const result = checkYaml(
    ...REQUIRED_KEYS,
    "models:",
    "  writer:",
    ...settings.map((line) => `    ${line}`),
  );
  if (!result.ok) throw new Error(result.error.message);
  const role = result.value.models[0];
  if (role === undefined) throw new Error("no role");
  return role.settings;
}

const DEFAULTS: RoleSettings = { model: [], stop: [], maxRounds: 20 };
const KNOWN =
  "the known settings are model, system, temperature, max_output_tokens, stop, max_rounds";

describe("models:", () => {
  it("maps role labels to settings, in order", () => {
    const result = checkYaml(
      ...REQUIRED_KEYS,
      "models:",
      "  writer: {}",
      "  Critic-2: { temperature: 0 }",
    );
    expect(result.ok && result.value.models).toEqual([
      { label: "writer", settings: DEFAULTS, line: 6 },
      { label: "Critic-2", settings: { ...DEFAULTS, temperature: 0 }, line: 7 },
    ]);
  });

  it("checks role labels with the alias grammar", () => {
    expect(errorOf("models:", "  2writer: {}")).toEqual({
      kind: "Frontmatter",
      message:
        'invalid frontmatter: `models` role label: invalid alias "2writer": expected [A-Za-z][A-Za-z0-9_-]{0,63} (line 6)',
      line: 6,
    });
    expect(errorOf("models:", `  ${"a".repeat(65)}: {}`).message).toContain(
      `invalid alias "${"a".repeat(65)}"`,
    );
  });

  it("wants role labels to be strings", () => {
    expect(errorOf("models:", "  7: {}").message).toBe(
      "invalid frontmatter: `models` role labels must be strings, found a number (line 6)",
    );
  });

  it("wants a settings mapping for each role", () => {
    expect(errorOf("models:", "  writer:")).toEqual({
      kind: "Frontmatter",
      message:
        "invalid frontmatter: `models.writer` must be a settings mapping, found null; write `writer: {}` for no settings (line 6)",
      line: 6,
    });
    expect(errorOf("models:", "  writer: [a]").message).toBe(
      "invalid frontmatter: `models.writer` must be a settings mapping, found a list; write `writer: {}` for no settings (line 6)",
    );
  });

  it("wants models: to be a mapping", () => {
    expect(errorOf("models: [writer]").message).toBe(
      "invalid frontmatter: `models` must be a mapping of role labels to settings, such as `models: { writer: {} }`, found a list (line 5)",
    );
  });
});

describe("models: settings", () => {
  it("reads every setting, filling in the defaults", () => {
    expect(
      settingsOf(
        "model: [claude-sonnet-4-6, gpt-4.1]",
        "system: You write short, plain answers.",
        "temperature: 0.7",
        "max_output_tokens: 2048",
        'stop: ["\\n\\n", END]',
        "max_rounds: 8",
      ),
    ).toEqual({
      model: ["claude-sonnet-4-6", "gpt-4.1"],
      system: "You write short, plain answers.",
      temperature: 0.7,
      maxOutputTokens: 2048,
      stop: ["\n\n", "END"],
      maxRounds: 8,
    });
  });

  it("leaves out system, temperature and max_output_tokens when not given", () => {
    const settings = settingsOf("max_rounds: 3");
    expect(Object.keys(settings).sort()).toEqual(["maxRounds", "model", "stop"]);
  });

  it("takes one model id or one stop sequence as a list of one", () => {
    expect(settingsOf("model: llama3.1:8b", "stop: END")).toEqual({
      ...DEFAULTS,
      model: ["llama3.1:8b"],
      stop: ["END"],
    });
  });

  it("accepts the bounds of every range", () => {
    expect(settingsOf("temperature: 0").temperature).toBe(0);
    expect(settingsOf("temperature: 2").temperature).toBe(2);
    expect(settingsOf("max_output_tokens: 1").maxOutputTokens).toBe(1);
    expect(settingsOf("max_rounds: 1").maxRounds).toBe(1);
    expect(settingsOf("max_rounds: 10000").maxRounds).toBe(10000);
    expect(
      settingsOf(`stop: [${Array.from({ length: 16 }, (_, i) => `s${i}`).join(", ")}]`).stop,
    ).toHaveLength(16);
  });

  it("resolves YAML aliases in settings", () => {
    const result = checkYaml(
      ...REQUIRED_KEYS,
      "models:",
      "  writer: &w { model: [a, b], temperature: 0.5 }",
      "  critic: *w",
    );
    expect(result.ok && result.value.models.map((role) => role.settings)).toEqual([
      { ...DEFAULTS, model: ["a", "b"], temperature: 0.5 },
      { ...DEFAULTS, model: ["a", "b"], temperature: 0.5 },
    ]);
  });

  it("refuses an unknown setting, naming the known ones", () => {
    expect(errorOf("models:", "  writer: { temprature: 0.2 }")).toEqual({
      kind: "Frontmatter",
      message: `invalid frontmatter: \`models.writer\` has an unknown setting \`temprature\`; ${KNOWN} (line 6)`,
      line: 6,
    });
    expect(messageOf("model: a", "maxRounds: 3")).toBe(
      `invalid frontmatter: \`models.writer\` has an unknown setting \`maxRounds\`; ${KNOWN} (line 8)`,
    );
  });

  it("wants setting keys to be strings", () => {
    expect(messageOf("1: x")).toBe(
      "invalid frontmatter: the keys of `models.writer` must be strings, found a number (line 7)",
    );
  });

  it("ends an alias cycle with an error instead of looping", () => {
    expect(errorOf("models:", "  writer: &w { model: [*w] }").message).toBe(
      "invalid frontmatter: `models.writer.model[0]` must be a catalog model id, found a mapping (line 6)",
    );
  });
});

describe("models: model", () => {
  it("wants an id or a non-empty list of ids", () => {
    const expected = "must be a catalog model id or a non-empty list of them";
    expect(messageOf("model: 4")).toBe(
      `invalid frontmatter: \`models.writer.model\` ${expected}, found a number (line 7)`,
    );
    expect(messageOf("model: []")).toBe(
      `invalid frontmatter: \`models.writer.model\` ${expected}, found an empty list (line 7)`,
    );
    expect(messageOf('model: ""')).toBe(
      `invalid frontmatter: \`models.writer.model\` ${expected}, found an empty string (line 7)`,
    );
    expect(messageOf("model: { id: a }")).toBe(
      `invalid frontmatter: \`models.writer.model\` ${expected}, found a mapping (line 7)`,
    );
    expect(messageOf("model:")).toBe(
      `invalid frontmatter: \`models.writer.model\` ${expected}, found null (line 7)`,
    );
  });

  it("names the list item at fault, on its own line", () => {
    expect(messageOf("model:", "  - a", "  - b", "  - { id: c }")).toBe(
      "invalid frontmatter: `models.writer.model[2]` must be a catalog model id, found a mapping (line 10)",
    );
    expect(messageOf("model: [a, 7]")).toBe(
      "invalid frontmatter: `models.writer.model[1]` must be a catalog model id, found a number (line 7)",
    );
    expect(messageOf('model: [a, ""]')).toBe(
      "invalid frontmatter: `models.writer.model[1]` must be a catalog model id, found an empty string (line 7)",
    );
  });

  it("checks every id with the catalog id grammar", () => {
    expect(errorOf("models:", "  writer: { model: gpt 4 }")).toEqual({
      kind: "Frontmatter",
      message:
        "invalid frontmatter: `models.writer.model` names `gpt 4`, which is not a catalog model id ([A-Za-z0-9][A-Za-z0-9._:/@+-]{0,127}) (line 6)",
      line: 6,
    });
    expect(messageOf("model:", "  - claude-sonnet-4-6", "  - -bad")).toBe(
      "invalid frontmatter: `models.writer.model[1]` names `-bad`, which is not a catalog model id ([A-Za-z0-9][A-Za-z0-9._:/@+-]{0,127}) (line 9)",
    );
    expect(messageOf(`model: ${"m".repeat(129)}`)).toContain("which is not a catalog model id");
  });
});

describe("models: system", () => {
  it("wants a non-empty string", () => {
    expect(messageOf('system: ""')).toBe(
      "invalid frontmatter: `models.writer.system` must be a non-empty string, found an empty string (line 7)",
    );
    expect(messageOf("system: [a]")).toBe(
      "invalid frontmatter: `models.writer.system` must be a non-empty string, found a list (line 7)",
    );
    expect(messageOf("system: true")).toBe(
      "invalid frontmatter: `models.writer.system` must be a non-empty string, found a boolean (line 7)",
    );
  });

  it("keeps a block scalar's text as YAML gives it", () => {
    expect(settingsOf("system: |", "  Line one.", "  Line two.").system).toBe(
      "Line one.\nLine two.\n",
    );
  });
});

describe("models: temperature", () => {
  it("wants a number from 0 to 2", () => {
    const expected = "`models.writer.temperature` must be a number from 0 to 2";
    expect(messageOf("temperature: warm")).toBe(
      `invalid frontmatter: ${expected}, found a string (line 7)`,
    );
    expect(messageOf("temperature: 2.5")).toBe(
      `invalid frontmatter: ${expected}, found 2.5 (line 7)`,
    );
    expect(messageOf("temperature: -0.1")).toBe(
      `invalid frontmatter: ${expected}, found -0.1 (line 7)`,
    );
    expect(messageOf("temperature: .inf")).toBe(
      `invalid frontmatter: ${expected}, found Infinity (line 7)`,
    );
    expect(messageOf("temperature: .nan")).toBe(
      `invalid frontmatter: ${expected}, found NaN (line 7)`,
    );
    expect(messageOf('temperature: "1"')).toBe(
      `invalid frontmatter: ${expected}, found a string (line 7)`,
    );
  });
});

describe("models: max_output_tokens", () => {
  it("wants a whole number of at least 1", () => {
    const expected = "`models.writer.max_output_tokens` must be a whole number of at least 1";
    expect(messageOf("max_output_tokens: 0")).toBe(
      `invalid frontmatter: ${expected}, found 0 (line 7)`,
    );
    expect(messageOf("max_output_tokens: 1.5")).toBe(
      `invalid frontmatter: ${expected}, found 1.5 (line 7)`,
    );
    expect(messageOf("max_output_tokens: 1e300")).toBe(
      `invalid frontmatter: ${expected}, found 1e+300 (line 7)`,
    );
    expect(messageOf("max_output_tokens: lots")).toBe(
      `invalid frontmatter: ${expected}, found a string (line 7)`,
    );
  });
});

describe("models: max_rounds", () => {
  it("wants a whole number from 1 to 10000", () => {
    const expected = "`models.writer.max_rounds` must be a whole number from 1 to 10000";
    expect(errorOf("models:", "  writer: { max_rounds: 0 }")).toEqual({
      kind: "Frontmatter",
      message: `invalid frontmatter: ${expected}, found 0 (line 6)`,
      line: 6,
    });
    expect(messageOf("max_rounds: 10001")).toBe(
      `invalid frontmatter: ${expected}, found 10001 (line 7)`,
    );
    expect(messageOf("max_rounds: 2.5")).toBe(
      `invalid frontmatter: ${expected}, found 2.5 (line 7)`,
    );
    expect(messageOf("max_rounds: ~")).toBe(
      `invalid frontmatter: ${expected}, found null (line 7)`,
    );
  });
});

describe("models: stop", () => {
  const expected = "`models.writer.stop` must be a string or a list of 1 to 16 non-empty strings";

  it("wants a string or a list of 1 to 16 non-empty strings", () => {
    expect(messageOf("stop: 3")).toBe(`invalid frontmatter: ${expected}, found a number (line 7)`);
    expect(messageOf('stop: ""')).toBe(
      `invalid frontmatter: ${expected}, found an empty string (line 7)`,
    );
    expect(messageOf("stop: []")).toBe(
      `invalid frontmatter: ${expected}, found an empty list (line 7)`,
    );
    const seventeen = Array.from({ length: 17 }, (_, i) => `s${i}`).join(", ");
    expect(messageOf(`stop: [${seventeen}]`)).toBe(
      `invalid frontmatter: ${expected}, found a list of 17 items (line 7)`,
    );
  });

  it("names the line of the item at fault", () => {
    expect(messageOf("stop:", "  - END", "  - 4")).toBe(
      `invalid frontmatter: ${expected}, found a list holding a number (line 9)`,
    );
    expect(messageOf('stop: [END, ""]')).toBe(
      `invalid frontmatter: ${expected}, found a list holding an empty string (line 7)`,
    );
  });
});

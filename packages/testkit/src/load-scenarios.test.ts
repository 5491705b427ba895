import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { collectScenarioFiles, ScenarioPathError } from "./collect-files";
import { ScenarioFormatError } from "./format-error";
import { loadScenarioFile } from "./load-scenarios";
import type { ScenarioCase } from "./scenario-types";

const PATH = "cases.yaml";

/** The format error a text raises (the test fails when it loads). */
function formatError(text: string): ScenarioFormatError {
  try {
    loadScenarioFile({ text, path: PATH });
  } catch (error) {
    if (error instanceof ScenarioFormatError) return error;
    throw error;
  }
  throw new Error("the text loaded without a format error");
}

/** The problems of a text, one line each. */
function problems(text: string): string[] {
  return formatError(text).message.split("\n");
}

/** A file with one case named c; `body` lines are indented by 4 and start at line 4. */
function oneCase(body: string): string {
  return `cases:\n  - name: c\n    prompt: p\n${body}`;
}

function loadOne(text: string): ScenarioCase {
  const file = loadScenarioFile({ text, path: PATH });
  const [first] = file.cases;
  if (first === undefined) throw new Error("no case");
  return first;
}

/** The example of FORMAT.md, with parse_error in a case of its own (it never runs). */
const FORMAT_EXAMPLE = `cases:
  - name: offer-search advertises one tool
    spec: "Tools / Offering tools with tools.offer and packs.offer"
    skip: "reason"
    prompt: |
      ---
      name: offer-search
      ---
      ...
    args: "hi"
    host:
      packs: [web, user-input, subagents]
      services: [input-broker, search-provider]
      unavailable:
        web: "web needs runvil/search-provider, and this host provides none"
      fixture_tools:
        - id: stats/read
          description: Reads stats.
          parameters: { type: object, properties: {} }
          structured: true
          trusted: true
          declared: false
          returns: '{"text":"typed","images":[]}'
        - id: poop/flush
          declared: true
          vendor: acme
          fails: "clogged"
      fixture_preludes:
        kit: |
          local pack = ...
          answer = 42
      snapshot: { selected_model: m-1, workspace_root: null }
      limits: { log_events: 4, lua_memory_bytes: 67108864 }
    run:
      name: execute-test
      seed: 1
      start: "2000-02-29T00:00:00.123Z"
    models:
      bind: { writer: claude-sonnet-4-6 }
      replies:
        - text: "final answer"
        - tool_calls:
            - { id: call_1, name: web_search, arguments: { query: lua } }
          text: ""
        - fail: { kind: context_exhausted, reason: provider, message: "context window exceeded" }
        - empty: { finish_reason: length }
    operator:
      - "hi"
      - fail: "the operator's window closed"
      - hold: true
    web:
      pages: { "https://www.lua.org/": "Lua: the programming language" }
      search: { "latest Lua release": "1. Lua 5.5.0 released ..." }
    store: { "note.md": "hello" }
    cancel_after_ms: 50
    stop_after_ms: 60
    expect:
      result: "ok"
      result_matches: "^tool\\\\|1\\\\|"
      error:
        kind: Lua
        message: "exact first line"
        cause_contains: "the gate cannot hold"
      outcome: failed
      checkpoints: ["Lua: prepare started", "Lua: finish started"]
      model_requests:
        - tools: [web_search, web_fetch]
          messages: 1
          tool_definitions:
            - name: grab
              description: Grab a value
              parameters: { type: object, properties: { value: { type: string } }, required: [value] }
      events:
        - { type: tool_result, tool_call_id: call_1, alias: web_search, tool: web/search, trusted: false }
      store: { "note.md": "hello" }
      var: { kept: "yes" }
  - name: parse error
    prompt: "---"
    expect:
      parse_error: { kind: Frontmatter, message_contains: "invalid uses entry" }
`;

describe("loadScenarioFile: the format's example", () => {
  it("types every key", () => {
    const file = loadScenarioFile({ text: FORMAT_EXAMPLE, path: PATH });
    expect(file.path).toBe(PATH);
    expect(file.cases).toHaveLength(2);
    expect(file.cases[0]).toEqual({
      index: 0,
      line: 2,
      name: "offer-search advertises one tool",
      spec: "Tools / Offering tools with tools.offer and packs.offer",
      skip: "reason",
      prompt: "---\nname: offer-search\n---\n...\n",
      args: "hi",
      host: {
        packs: ["web", "user-input", "subagents"],
        services: ["input-broker", "search-provider"],
        unavailable: { web: "web needs runvil/search-provider, and this host provides none" },
        fixtureTools: [
          {
            id: "stats/read",
            packId: "stats",
            description: "Reads stats.",
            parameters: { type: "object", properties: {} },
            structured: true,
            trusted: true,
            declared: false,
            vendor: "fixture",
            behaviour: { kind: "returns", text: '{"text":"typed","images":[]}' },
          },
          {
            id: "poop/flush",
            packId: "poop",
            description: "",
            parameters: { type: "object", properties: {} },
            structured: false,
            trusted: true,
            declared: true,
            vendor: "acme",
            behaviour: { kind: "fails", message: "clogged" },
          },
        ],
        fixturePreludes: { kit: "local pack = ...\nanswer = 42\n" },
        snapshot: { selected_model: "m-1", workspace_root: null },
        limits: { logEvents: 4, luaMemoryBytes: 67108864 },
      },
      run: {
        name: "execute-test",
        seed: 1,
        start: "2000-02-29T00:00:00.123Z",
        startEpochMs: Date.UTC(2000, 1, 29, 0, 0, 0, 123),
      },
      models: {
        bind: { writer: "claude-sonnet-4-6" },
        replies: [
          { kind: "message", text: "final answer", toolCalls: [] },
          {
            kind: "message",
            text: "",
            toolCalls: [{ id: "call_1", name: "web_search", arguments: { query: "lua" } }],
          },
          {
            kind: "fail",
            failure: {
              kind: "context_exhausted",
              reason: "provider",
              message: "context window exceeded",
            },
          },
          { kind: "empty", finishReason: "length" },
        ],
      },
      operator: [
        { kind: "answer", text: "hi" },
        { kind: "fail", message: "the operator's window closed" },
        { kind: "hold" },
      ],
      web: {
        pages: { "https://www.lua.org/": "Lua: the programming language" },
        search: { "latest Lua release": "1. Lua 5.5.0 released ..." },
      },
      store: { "note.md": "hello" },
      cancelAfterMs: 50,
      stopAfterMs: 60,
      expect: {
        result: "ok",
        resultMatches: "^tool\\|1\\|",
        error: { kind: "Lua", message: "exact first line", causeContains: "the gate cannot hold" },
        outcome: "failed",
        checkpoints: ["Lua: prepare started", "Lua: finish started"],
        modelRequests: [
          {
            tools: ["web_search", "web_fetch"],
            messages: 1,
            toolDefinitions: [
              {
                name: "grab",
                description: "Grab a value",
                parameters: {
                  type: "object",
                  properties: { value: { type: "string" } },
                  required: ["value"],
                },
              },
            ],
          },
        ],
        events: [
          {
            type: "tool_result",
            tool_call_id: "call_1",
            alias: "web_search",
            tool: "web/search",
            trusted: false,
          },
        ],
        store: { "note.md": "hello" },
        var: { kept: "yes" },
      },
    });
    expect(file.cases[1]?.expect).toEqual({
      parseError: { kind: "Frontmatter", messageContains: "invalid uses entry" },
    });
  });
});

describe("loadScenarioFile: defaults", () => {
  it("fills every default the format states", () => {
    expect(loadOne(oneCase("    expect: { result: x }\n"))).toEqual({
      index: 0,
      line: 2,
      name: "c",
      prompt: "p",
      host: {
        packs: ["web", "user-input", "subagents"],
        services: ["input-broker", "search-provider"],
        unavailable: {},
        fixtureTools: [],
        fixturePreludes: {},
        limits: {},
      },
      run: { name: "run-1", seed: 0, start: "2000-01-01T00:00:00Z", startEpochMs: 946684800000 },
      models: { bind: {}, replies: [] },
      operator: [],
      web: { pages: {}, search: {} },
      store: {},
      expect: { result: "x" },
    });
  });

  it("keeps the defaults of a host or run key left out", () => {
    const scenario = loadOne(
      oneCase("    host: { services: [] }\n    run: { seed: 7 }\n    expect: { result: x }\n"),
    );
    expect(scenario.host.packs).toEqual(["web", "user-input", "subagents"]);
    expect(scenario.host.services).toEqual([]);
    expect(scenario.run).toEqual({
      name: "run-1",
      seed: 7,
      start: "2000-01-01T00:00:00Z",
      startEpochMs: 946684800000,
    });
  });

  it("accepts an empty cases list", () => {
    expect(loadScenarioFile({ text: "cases: []\n", path: PATH })).toEqual({
      path: PATH,
      cases: [],
    });
  });

  it("follows YAML anchors, aliases and merge keys", () => {
    const text = `cases:
  - name: one
    prompt: &prompt |
      # Title
    host: &host { packs: [web] }
    expect: { result: x }
  - name: two
    prompt: *prompt
    host:
      <<: *host
      services: []
    expect: { result: y }
`;
    const [one, two] = loadScenarioFile({ text, path: PATH }).cases;
    expect(two?.prompt).toBe("# Title\n");
    expect(two?.host.packs).toEqual(["web"]);
    expect(two?.host.services).toEqual([]);
    expect(one?.host.services).toEqual(["input-broker", "search-provider"]);
  });
});

describe("loadScenarioFile: the error names file, line, key path and case", () => {
  it("carries the first problem's details on the error", () => {
    const error = formatError(
      `cases:\n  - name: a\n    prompt: p\n    expect: { result: x }\n  - name: b\n    prompt: p\n    expect:\n      error:\n        kind: 3\n`,
    );
    expect(error.file).toBe(PATH);
    expect(error.line).toBe(9);
    expect(error.caseIndex).toBe(1);
    expect(error.caseName).toBe("b");
    expect(error.keyPath).toBe("cases[1].expect.error.kind");
    expect(error.message).toBe(
      'cases.yaml:9: cases[1].expect.error.kind (case "b"): must be a string, got a number (3)',
    );
    expect(error.issues).toHaveLength(1);
  });

  it("lists every problem of the file in line order", () => {
    expect(
      problems(`cases:
  - name: a
    prompt: p
    expect: { outcome: done }
  - prompt: p
    expect: { resutl: x }
`),
    ).toEqual([
      'cases.yaml:4: cases[0].expect.outcome (case "a"): must be one of succeeded, failed, cancelled; got a string ("done")',
      'cases.yaml:5: cases[1]: missing required key "name"',
      'cases.yaml:6: cases[1].expect.resutl: unknown key "resutl"; did you mean "result"?',
    ]);
  });

  it("reports invalid YAML with its line and case", () => {
    expect(problems(oneCase('    expect: { result: "x"\n  - name: d\n'))).toEqual([
      'cases.yaml:5: cases[1] (case "d"): invalid YAML: Flow map in block collection must be sufficiently indented and end with a }',
    ]);
  });

  it("reports a repeated YAML key", () => {
    expect(problems(oneCase("    prompt: q\n    expect: { result: x }\n"))).toEqual([
      'cases.yaml:4: cases[0] (case "c"): invalid YAML: Map keys must be unique',
    ]);
  });

  it("refuses a file that is not a mapping with cases", () => {
    expect(problems("")).toEqual([
      "cases.yaml: a scenario file is a mapping with one key, cases (a list of cases)",
    ]);
    expect(problems("- name: a\n")).toEqual([
      "cases.yaml:1: a scenario file is a mapping with one key, cases (a list of cases)",
    ]);
    expect(problems("tests: []\n")).toEqual([
      'cases.yaml:1: tests: unknown key "tests"; the keys here are: cases',
      'cases.yaml:1: missing required key "cases"',
    ]);
    expect(problems("cases: {}\n")).toEqual(["cases.yaml:1: cases: must be a list of cases"]);
  });

  it("refuses a case that is not a mapping", () => {
    expect(problems("cases:\n  - just text\n")).toEqual([
      'cases.yaml:2: cases[0]: must be a mapping, got a string ("just text")',
    ]);
  });
});

describe("loadScenarioFile: required keys and names", () => {
  it("needs name, prompt and expect", () => {
    expect(problems("cases:\n  - spec: x\n")).toEqual([
      'cases.yaml:2: cases[0]: missing required key "name"',
      'cases.yaml:2: cases[0]: missing required key "prompt"',
      'cases.yaml:2: cases[0]: missing required key "expect"',
    ]);
  });

  it("refuses a repeated case name, naming the first one", () => {
    expect(
      problems(`cases:
  - name: same
    prompt: p
    expect: { result: x }
  - name: same
    prompt: p
    expect: { result: y }
`),
    ).toEqual([
      'cases.yaml:5: cases[1].name (case "same"): repeats the name of cases[0] (line 2); names are unique within a file',
    ]);
  });

  it("refuses an empty or multi-line name", () => {
    expect(problems('cases:\n  - name: " "\n    prompt: p\n    expect: { result: x }\n')).toEqual([
      "cases.yaml:2: cases[0].name: must not be empty",
    ]);
    expect(
      problems('cases:\n  - name: "a\\nb"\n    prompt: p\n    expect: { result: x }\n'),
    ).toEqual(['cases.yaml:2: cases[0].name (case "a\\nb"): must be one line']);
  });

  it("refuses an expect that checks nothing", () => {
    expect(problems(oneCase("    expect: {}\n"))).toEqual([
      'cases.yaml:4: cases[0].expect (case "c"): checks nothing: give at least one key, such as outcome: succeeded',
    ]);
  });
});

describe("loadScenarioFile: unknown keys at every level", () => {
  const CASE_KEYS =
    "name, spec, skip, prompt, prompt_file, args, host, run, models, operator, web, store, cancel_after_ms, stop_after_ms, expect";
  const table: [string, string, string][] = [
    [
      "case",
      "    expect: { result: x }\n    argz: y\n",
      `cases[0].argz (case "c"): unknown key "argz"; did you mean "args"?`,
    ],
    [
      "case (no near key)",
      "    expect: { result: x }\n    zzzzzzzz: y\n",
      `cases[0].zzzzzzzz (case "c"): unknown key "zzzzzzzz"; the keys here are: ${CASE_KEYS}`,
    ],
    [
      "host",
      "    expect: { result: x }\n    host: { pack: [web] }\n",
      `cases[0].host.pack (case "c"): unknown key "pack"; did you mean "packs"?`,
    ],
    [
      "host.fixture_tools[]",
      "    expect: { result: x }\n    host: { fixture_tools: [{ id: a/b, returns: x, trust: true }] }\n",
      `cases[0].host.fixture_tools[0].trust (case "c"): unknown key "trust"; did you mean "trusted"?`,
    ],
    [
      "host.limits",
      "    expect: { result: x }\n    host: { limits: { log_event: 1 } }\n",
      `cases[0].host.limits.log_event (case "c"): unknown key "log_event"; did you mean "log_events"?`,
    ],
    [
      "run",
      "    expect: { result: x }\n    run: { sed: 1 }\n",
      `cases[0].run.sed (case "c"): unknown key "sed"; did you mean "seed"?`,
    ],
    [
      "models",
      "    expect: { result: x }\n    models: { reply: [] }\n",
      `cases[0].models.reply (case "c"): unknown key "reply"; did you mean "replies"?`,
    ],
    [
      "models.replies[]",
      "    expect: { result: x }\n    models: { replies: [{ txt: a }] }\n",
      `cases[0].models.replies[0].txt (case "c"): unknown key "txt"; did you mean "text"?`,
    ],
    [
      "tool_calls[]",
      "    expect: { result: x }\n    models: { replies: [{ tool_calls: [{ id: a, name: b, args: {} }] }] }\n",
      `cases[0].models.replies[0].tool_calls[0].args (case "c"): unknown key "args"; the keys here are: id, name, arguments`,
    ],
    [
      "replies[].fail",
      "    expect: { result: x }\n    models: { replies: [{ fail: { kind: internal, message: m, reasons: r } }] }\n",
      `cases[0].models.replies[0].fail.reasons (case "c"): unknown key "reasons"; did you mean "reason"?`,
    ],
    [
      "replies[].empty",
      "    expect: { result: x }\n    models: { replies: [{ empty: { finish: x } }] }\n",
      `cases[0].models.replies[0].empty.finish (case "c"): unknown key "finish"; did you mean "finish_reason"?`,
    ],
    [
      "operator[]",
      "    expect: { result: x }\n    operator: [{ fails: x }]\n",
      `cases[0].operator[0].fails (case "c"): unknown key "fails"; did you mean "fail"?`,
    ],
    [
      "web",
      "    expect: { result: x }\n    web: { page: {} }\n",
      `cases[0].web.page (case "c"): unknown key "page"; did you mean "pages"?`,
    ],
    [
      "expect",
      "    expect: { results: x }\n",
      `cases[0].expect.results (case "c"): unknown key "results"; did you mean "result"?`,
    ],
    [
      "expect.error",
      "    expect: { error: { kind: Lua, messages: x } }\n",
      `cases[0].expect.error.messages (case "c"): unknown key "messages"; did you mean "message"?`,
    ],
    [
      "expect.parse_error (cause_contains is for run errors)",
      "    expect: { parse_error: { cause_contains: x } }\n",
      `cases[0].expect.parse_error.cause_contains (case "c"): unknown key "cause_contains"; the keys here are: kind, message, message_contains, message_matches`,
    ],
    [
      "expect.model_requests[]",
      "    expect: { model_requests: [{ tool: [] }] }\n",
      `cases[0].expect.model_requests[0].tool (case "c"): unknown key "tool"; did you mean "tools"?`,
    ],
    [
      "tool_definitions[]",
      "    expect: { model_requests: [{ tool_definitions: [{ params: {} }] }] }\n",
      `cases[0].expect.model_requests[0].tool_definitions[0].params (case "c"): unknown key "params"; did you mean "parameters"?`,
    ],
  ];
  for (const [level, body, message] of table) {
    it(`refuses an unknown key in ${level}`, () => {
      const found = problems(oneCase(body));
      expect(found).toHaveLength(1);
      expect(found[0]?.replace(/^cases\.yaml:\d+: /, "")).toBe(message);
    });
  }

  it("points at the line of the unknown key", () => {
    expect(problems(oneCase("    expect:\n      result: x\n      resutl: y\n"))[0]).toMatch(
      /^cases\.yaml:6: /,
    );
  });
});

describe("loadScenarioFile: types and values", () => {
  const table: [string, string, string][] = [
    ["prompt", "    prompt2: x\n", ""],
    ["args", "    args: 42\n", 'cases[0].args (case "c"): must be a string, got a number (42)'],
    [
      "skip",
      "    skip: true\n",
      'cases[0].skip (case "c"): must be a string, got a boolean (true)',
    ],
    ["empty skip", '    skip: ""\n', 'cases[0].skip (case "c"): must not be empty'],
    ["spec", "    spec: [a]\n", 'cases[0].spec (case "c"): must be a string, got a list'],
    [
      "cancel_after_ms",
      "    cancel_after_ms: -1\n",
      'cases[0].cancel_after_ms (case "c"): must be at least 0, got -1',
    ],
    [
      "stop_after_ms",
      "    stop_after_ms: 1.5\n",
      'cases[0].stop_after_ms (case "c"): must be a whole number, got a number (1.5)',
    ],
    ["host", "    host: [web]\n", 'cases[0].host (case "c"): must be a mapping, got a list'],
    [
      "host.packs",
      "    host: { packs: web }\n",
      'cases[0].host.packs (case "c"): must be a list drawn from web, user-input, subagents, got a string ("web")',
    ],
    [
      "host.packs item",
      "    host: { packs: [webb] }\n",
      'cases[0].host.packs[0] (case "c"): must be one of web, user-input, subagents; got a string ("webb")',
    ],
    [
      "host.packs repeat",
      "    host: { packs: [web, web] }\n",
      'cases[0].host.packs[1] (case "c"): lists "web" twice',
    ],
    [
      "host.services item",
      "    host: { services: [runvil/input-broker] }\n",
      'cases[0].host.services[0] (case "c"): must be one of input-broker, search-provider; got a string ("runvil/input-broker")',
    ],
    [
      "host.unavailable",
      "    host: { unavailable: { web: 1 } }\n",
      'cases[0].host.unavailable.web (case "c"): must be a string, got a number (1)',
    ],
    [
      "host.fixture_tools",
      "    host: { fixture_tools: { id: a/b } }\n",
      'cases[0].host.fixture_tools (case "c"): must be a list of tools, got a mapping',
    ],
    [
      "fixture tool id",
      "    host: { fixture_tools: [{ id: stats, returns: x }] }\n",
      'cases[0].host.fixture_tools[0].id (case "c"): "stats" is not a tool id: write <pack>/<tool>, such as stats/read',
    ],
    [
      "fixture tool without id",
      "    host: { fixture_tools: [{ returns: x }] }\n",
      'cases[0].host.fixture_tools[0] (case "c"): missing required key "id"',
    ],
    [
      "fixture tool returns and fails",
      "    host: { fixture_tools: [{ id: a/b, returns: x, fails: y }] }\n",
      'cases[0].host.fixture_tools[0] (case "c"): needs exactly one of "returns" (the output text) or "fails" (a failure message)',
    ],
    [
      "fixture tool neither returns nor fails",
      "    host: { fixture_tools: [{ id: a/b }] }\n",
      'cases[0].host.fixture_tools[0] (case "c"): needs exactly one of "returns" (the output text) or "fails" (a failure message)',
    ],
    [
      "fixture tool vendor without declared",
      "    host: { fixture_tools: [{ id: a/b, returns: x, vendor: acme }] }\n",
      'cases[0].host.fixture_tools[0].vendor (case "c"): applies only to a declared fixture Pack: add declared: true',
    ],
    [
      "fixture tool structured",
      "    host: { fixture_tools: [{ id: a/b, returns: x, structured: yes }] }\n",
      'cases[0].host.fixture_tools[0].structured (case "c"): must be true or false, got a string ("yes")',
    ],
    [
      "fixture tool repeated id",
      "    host: { fixture_tools: [{ id: a/b, returns: x }, { id: a/b, returns: y }] }\n",
      'cases[0].host.fixture_tools[1].id (case "c"): repeats the tool id "a/b" of fixture_tools[0]',
    ],
    [
      "fixture tool parameters not JSON",
      "    host: { fixture_tools: [{ id: a/b, returns: x, parameters: { max: .inf } }] }\n",
      'cases[0].host.fixture_tools[0].parameters.max (case "c"): must be JSON data, and Infinity is not a JSON number',
    ],
    [
      "fixture_preludes key",
      "    host: { fixture_preludes: { acme/kit: x } }\n",
      'cases[0].host.fixture_preludes["acme/kit"] (case "c"): "acme/kit" is not a bare Pack id: a fixture prelude\'s Pack is declared by its bare id',
    ],
    [
      "snapshot",
      "    host: { snapshot: m-1 }\n",
      'cases[0].host.snapshot (case "c"): must be a mapping, got a string ("m-1")',
    ],
    [
      "limits.log_events",
      "    host: { limits: { log_events: -1 } }\n",
      'cases[0].host.limits.log_events (case "c"): must be at least 0, got -1',
    ],
    [
      "limits.lua_memory_bytes",
      "    host: { limits: { lua_memory_bytes: 0 } }\n",
      'cases[0].host.limits.lua_memory_bytes (case "c"): must be at least 1, got 0',
    ],
    ["run.name", '    run: { name: "" }\n', 'cases[0].run.name (case "c"): must not be empty'],
    [
      "run.seed",
      "    run: { seed: abc }\n",
      'cases[0].run.seed (case "c"): must be a whole number from 0 to 18446744073709551615, got "abc"',
    ],
    [
      "run.start",
      '    run: { start: "2001-02-29T00:00:00Z" }\n',
      'cases[0].run.start (case "c"): "2001-02-29T00:00:00Z" is not a UTC instant such as 2000-01-01T00:00:00Z or 2000-02-29T00:00:00.123Z',
    ],
    [
      "models.bind",
      "    models: { bind: { writer: 3 } }\n",
      'cases[0].models.bind.writer (case "c"): must be a string, got a number (3)',
    ],
    [
      "models.replies",
      "    models: { replies: { text: a } }\n",
      'cases[0].models.replies (case "c"): must be a list of replies, got a mapping',
    ],
    [
      "reply with nothing",
      "    models: { replies: [{}] }\n",
      'cases[0].models.replies[0] (case "c"): a reply needs "text" or "tool_calls" (a reply with neither is written empty: {})',
    ],
    [
      "fail reply with text",
      '    models: { replies: [{ fail: { kind: k, message: m }, text: "" }] }\n',
      'cases[0].models.replies[0] (case "c"): a "fail" reply has no other keys; remove "text"',
    ],
    [
      "fail reply without message",
      "    models: { replies: [{ fail: { kind: k } }] }\n",
      'cases[0].models.replies[0].fail (case "c"): missing required key "message"',
    ],
    [
      "tool call without name",
      "    models: { replies: [{ tool_calls: [{ id: a }] }] }\n",
      'cases[0].models.replies[0].tool_calls[0] (case "c"): missing required key "name"',
    ],
    [
      "operator",
      "    operator: hi\n",
      'cases[0].operator (case "c"): must be a list of answers, got a string ("hi")',
    ],
    [
      "operator item",
      "    operator: [42]\n",
      'cases[0].operator[0] (case "c"): an operator answer is a string, fail: "message" or hold: true; got a number (42)',
    ],
    [
      "operator hold false",
      "    operator: [{ hold: false }]\n",
      'cases[0].operator[0].hold (case "c"): must be true (remove the entry to answer nothing)',
    ],
    [
      "operator fail and hold",
      "    operator: [{ hold: true, fail: x }]\n",
      'cases[0].operator[0] (case "c"): an operator entry that is not a string has exactly one key: "fail" or "hold"',
    ],
    [
      "web.pages",
      "    web: { pages: [a] }\n",
      'cases[0].web.pages (case "c"): must be a mapping of strings, got a list',
    ],
    [
      "store",
      "    store: { a.txt: 1 }\n",
      'cases[0].store["a.txt"] (case "c"): must be a string, got a number (1)',
    ],
  ];
  for (const [what, body, message] of table) {
    if (message === "") continue;
    it(`refuses a bad ${what}`, () => {
      const found = problems(oneCase(`${body}    expect: { outcome: succeeded }\n`));
      expect(found.map((line) => line.replace(/^cases\.yaml:\d+: /, ""))).toEqual([message]);
    });
  }
});

describe("loadScenarioFile: expect", () => {
  const table: [string, string, string][] = [
    [
      "expect",
      "    expect: x\n",
      'cases[0].expect (case "c"): must be a mapping, got a string ("x")',
    ],
    [
      "result",
      "    expect: { result: 1 }\n",
      'cases[0].expect.result (case "c"): must be a string, got a number (1)',
    ],
    [
      "result_matches",
      '    expect: { result_matches: "a(" }\n',
      'cases[0].expect.result_matches (case "c"): is not a valid regular expression: Invalid regular expression: /a(/u: Unterminated group',
    ],
    [
      "result_matches (u flag)",
      '    expect: { result_matches: "\\\\-" }\n',
      'cases[0].expect.result_matches (case "c"): is not a valid regular expression: Invalid regular expression: /\\-/u: Invalid escape',
    ],
    [
      "empty result_matches",
      '    expect: { result_matches: "" }\n',
      'cases[0].expect.result_matches (case "c"): must not be empty: an empty regular expression matches any text',
    ],
    [
      "NONCE in result_matches",
      '    expect: { result_matches: "<u_NONCE>" }\n',
      'cases[0].expect.result_matches (case "c"): NONCE is not replaced inside a regular expression; match the nonce with [0-9a-f]{32}',
    ],
    [
      "outcome",
      "    expect: { outcome: passed }\n",
      'cases[0].expect.outcome (case "c"): must be one of succeeded, failed, cancelled; got a string ("passed")',
    ],
    [
      "two message keys",
      "    expect: { error: { message: a, message_matches: b } }\n",
      'cases[0].expect.error (case "c"): gives message and message_matches; give at most one of message, message_contains, message_matches',
    ],
    [
      "three message keys",
      "    expect: { parse_error: { message: a, message_contains: b, message_matches: c } }\n",
      'cases[0].expect.parse_error (case "c"): gives message and message_contains and message_matches; give at most one of message, message_contains, message_matches',
    ],
    [
      "multi-line message",
      '    expect: { error: { message: "a\\nb" } }\n',
      'cases[0].expect.error.message (case "c"): is compared with the first line of the message, so it must be one line; use message_contains or message_matches for more',
    ],
    [
      "message_matches",
      '    expect: { error: { message_matches: "[" } }\n',
      'cases[0].expect.error.message_matches (case "c"): is not a valid regular expression: Invalid regular expression: /[/u: Unterminated character class',
    ],
    [
      "parse_error message_matches",
      '    expect: { parse_error: { message_matches: "*" } }\n',
      'cases[0].expect.parse_error.message_matches (case "c"): is not a valid regular expression: Invalid regular expression: /*/u: Nothing to repeat',
    ],
    [
      "empty message_contains",
      '    expect: { error: { message_contains: "" } }\n',
      'cases[0].expect.error.message_contains (case "c"): must not be empty: every text contains the empty string',
    ],
    [
      "empty cause_contains",
      '    expect: { error: { cause_contains: "" } }\n',
      'cases[0].expect.error.cause_contains (case "c"): must not be empty: every text contains the empty string',
    ],
    [
      "error kind",
      "    expect: { error: { kind: [Lua] } }\n",
      'cases[0].expect.error.kind (case "c"): must be a string, got a list',
    ],
    [
      "error with outcome succeeded",
      "    expect: { error: { kind: Lua }, outcome: succeeded }\n",
      'cases[0].expect.outcome (case "c"): contradicts error: a run that fails does not succeed',
    ],
    [
      "parse_error with result",
      "    expect: { parse_error: { kind: Lua }, result: x }\n",
      'cases[0].expect.result (case "c"): cannot hold beside parse_error: a prompt that fails to parse never runs',
    ],
    [
      "checkpoints",
      "    expect: { checkpoints: Lua }\n",
      'cases[0].expect.checkpoints (case "c"): must be a list of strings, got a string ("Lua")',
    ],
    [
      "checkpoints item",
      "    expect: { checkpoints: [1] }\n",
      'cases[0].expect.checkpoints[0] (case "c"): must be a string, got a number (1)',
    ],
    [
      "model_requests",
      "    expect: { model_requests: 0 }\n",
      'cases[0].expect.model_requests (case "c"): must be a list (one entry per model request; [] for none), got a number (0)',
    ],
    [
      "model_requests tools",
      "    expect: { model_requests: [{ tools: web_search }] }\n",
      'cases[0].expect.model_requests[0].tools (case "c"): must be a list of strings, got a string ("web_search")',
    ],
    [
      "model_requests messages",
      "    expect: { model_requests: [{ messages: -1 }] }\n",
      'cases[0].expect.model_requests[0].messages (case "c"): must be at least 0, got -1',
    ],
    [
      "tool_definitions",
      "    expect: { model_requests: [{ tool_definitions: {} }] }\n",
      'cases[0].expect.model_requests[0].tool_definitions (case "c"): must be a list of tool definitions, got a mapping',
    ],
    [
      "tool_definitions name",
      "    expect: { model_requests: [{ tool_definitions: [{ name: 1 }] }] }\n",
      'cases[0].expect.model_requests[0].tool_definitions[0].name (case "c"): must be a string, got a number (1)',
    ],
    [
      "empty events",
      "    expect: { events: [] }\n",
      'cases[0].expect.events (case "c"): checks nothing: list at least one event, or leave the key out',
    ],
    [
      "event without type",
      "    expect: { events: [{ alias: x }] }\n",
      'cases[0].expect.events[0] (case "c"): missing required key "type"',
    ],
    [
      "event type",
      "    expect: { events: [{ type: 1 }] }\n",
      'cases[0].expect.events[0].type (case "c"): must be a string, got a number (1)',
    ],
    [
      "event value",
      "    expect: { events: [{ type: x, n: .nan }] }\n",
      'cases[0].expect.events[0].n (case "c"): must be JSON data, and NaN is not a JSON number',
    ],
    [
      "expect.store",
      "    expect: { store: [] }\n",
      'cases[0].expect.store (case "c"): must be a mapping of strings, got a list',
    ],
    [
      "var",
      "    expect: { var: { x: .inf } }\n",
      'cases[0].expect.var.x (case "c"): must be JSON data, and Infinity is not a JSON number',
    ],
  ];
  for (const [what, body, message] of table) {
    it(`refuses a bad ${what}`, () => {
      const found = problems(oneCase(body));
      expect(found.map((line) => line.replace(/^cases\.yaml:\d+: /, ""))).toEqual([message]);
    });
  }

  it("accepts var: null as JSON null", () => {
    expect(loadOne(oneCase("    expect: { var: null }\n")).expect).toEqual({ var: null });
  });

  it("accepts an empty error (the run fails, any error)", () => {
    expect(loadOne(oneCase("    expect: { error: {} }\n")).expect).toEqual({ error: {} });
  });

  it("accepts model_requests: [] (no request made)", () => {
    expect(loadOne(oneCase("    expect: { model_requests: [] }\n")).expect).toEqual({
      modelRequests: [],
    });
  });
});

describe("loadScenarioFile: from disk", () => {
  it("throws ScenarioPathError for a missing file", () => {
    expect(() => loadScenarioFile("/nonexistent/cases.yaml")).toThrow(
      new ScenarioPathError(
        "/nonexistent/cases.yaml",
        "no such file or directory: /nonexistent/cases.yaml",
      ),
    );
  });
});

const CONFORMANCE = resolve(
  process.env.RUNVIL_CONFORMANCE_DIR ?? join(import.meta.dirname, "../../../../shared/conformance"),
);

describe("the conformance scenarios", () => {
  it.skipIf(!existsSync(CONFORMANCE))(
    `every file loads without a format error (skipped when ${CONFORMANCE} is absent)`,
    () => {
      const files = collectScenarioFiles([CONFORMANCE]);
      expect(files.length).toBeGreaterThanOrEqual(25);
      let cases = 0;
      for (const file of files) cases += loadScenarioFile(file).cases.length;
      expect(cases).toBeGreaterThanOrEqual(663);
    },
  );
});

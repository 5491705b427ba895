import { describe, expect, it } from "vitest";
import { failureOf, headline } from "../test-support/failure";
import {
  type ModelRunOptions,
  modelPrompt,
  runModelPrompt,
  succeeded,
} from "./test-support/model-run";
import { boundRole } from "./test-support/scripted-rounds";

const TWO_ROLES = "  writer: {}\n  critic: {}";

/** A test's options: the run's, the `models:` lines to declare, the H1 block. */
type Options = ModelRunOptions & { readonly declare?: string; readonly h1?: string };

function prompt(lua: string, options: Options): string {
  return modelPrompt(lua, {
    ...(options.declare === undefined ? {} : { roles: options.declare }),
    ...(options.h1 === undefined ? {} : { h1: options.h1 }),
  });
}

/** Runs `lua` as the block of `## Main` (with `h1` as the H1 block) and returns the result. */
async function result(lua: string, options: Options = {}): Promise<string | null> {
  const { declare: _, h1: __, ...rest } = options;
  return succeeded(await runModelPrompt(prompt(lua, options), rest));
}

/** `kind|message` of the error `lua` raises, caught with pcall, and how many rounds ran. */
async function refusal(lua: string, options: Options = {}) {
  const { declare: _, h1: __, ...rest } = options;
  const run = await runModelPrompt(
    prompt(
      `local ok, err = pcall(function() ${lua} end)\nassert(not ok, 'no error')\nreturn err.kind .. '|' .. tostring(err)`,
      options,
    ),
    rest,
  );
  return { text: succeeded(run), rounds: run.port.modelRequests.length };
}

describe("the models table", () => {
  it("holds use, default, get and infer and is sealed", async () => {
    expect(
      await result(
        `return type(models) .. '|' .. type(models.use) .. type(models.default) .. type(models.get) ..
  type(models.infer) .. '|' .. getmetatable(models) .. '|' .. tostring(models.other)`,
      ),
    ).toBe("table|functionfunctionfunctionfunction|models is sealed|nil");
    expect((await refusal("models.x = 1")).text).toBe("lua|models is read-only; cannot set 'x'");
    expect((await refusal("models.use = 1")).text).toBe(
      "lua|models is read-only; cannot set 'use'",
    );
  });

  it("never makes a role label a global", async () => {
    expect(await result("return type(writer) .. '|' .. type(critic)", { declare: TWO_ROLES })).toBe(
      "nil|nil",
    );
  });
});

describe("models.get and model handles", () => {
  it("gives one frozen handle per role, with its name and bound model", async () => {
    expect(
      await result(
        `local w = models.get('writer')
return type(w) .. '|' .. w.name .. '|' .. w.model .. '|' .. tostring(w) .. '|' ..
  tostring(w == models.get('writer')) .. '|' .. tostring(w == models.get('critic')) .. '|' ..
  getmetatable(w) .. '|' .. tostring(w.other) .. '|' .. type(w.infer) .. '|' .. tostring(models.get('nobody'))`,
        { declare: TWO_ROLES, models: { bind: { writer: "claude-sonnet-4-6" } } },
      ),
    ).toBe(
      "userdata|writer|claude-sonnet-4-6|model: writer|true|false|model handles are frozen|nil|function|nil",
    );
  });

  it("reads no model for a role the run did not bind, and its rounds fail", async () => {
    expect(
      await result(
        `local c = models.get('critic')
local ok, err = pcall(c.infer, c, 'x')
return tostring(c.model) .. '|' .. err.kind .. '|' .. tostring(err)`,
        { declare: TWO_ROLES, roles: [boundRole("writer")] },
      ),
    ).toBe("nil|internal|model role critic is not bound to a catalog model in this run");
  });

  it("refuses a label that is not a string, and assignments", async () => {
    expect((await refusal("models.get(1)")).text).toBe(
      "lua|models.get takes a role label, got integer",
    );
    expect((await refusal("models.get()")).text).toBe("lua|models.get takes a role label, got nil");
    expect((await refusal("models.get('writer').name = 'x'")).text).toBe(
      'lua|model handles are frozen: cannot assign field "name"',
    );
  });

  it("is refused by tools.call and tools.offer with got userdata", async () => {
    expect((await refusal("tools.call(models.get('writer'), {})")).text).toBe(
      "lua|tools.call takes a tool id, a local alias, or a tool object, got userdata",
    );
    expect((await refusal("tools.offer(models.get('writer'))")).text).toBe(
      "lua|tools.offer takes tool ids, tool objects, or arrays of them, got userdata",
    );
  });

  it("is not JSON data", async () => {
    expect((await refusal("var.h = models.get('writer')")).text).toBe(
      "lua|runtime error: var.h must be JSON data, got userdata",
    );
    expect((await refusal("json.encode(models.get('writer'))")).text).toBe(
      "lua|json.encode: value must be JSON data, got userdata",
    );
  });

  it("joins with table.concat through its text", async () => {
    expect(await result("return table.concat({ models.get('writer'), 'x' }, ',')")).toBe(
      "model: writer,x",
    );
  });
});

describe("models.use and models.default", () => {
  it.each([
    ["models.use()", "lua|models.use takes (label)"],
    ["models.use('writer', 'critic')", "lua|models.use takes (label)"],
    ["models.use(3)", "lua|label must be a string, got integer"],
    ["models.use(nil)", "lua|label must be a string, got nil"],
    [
      "models.use('editor')",
      'lua|models.use: "editor" is not a model role of this prompt; declared roles: ["writer", "critic"]',
    ],
    [
      "models.default('writer')",
      "lua|models.default is only available in the H1 pass; use models.use(label) in a section",
    ],
  ])("%s raises %s", async (lua, message) => {
    expect((await refusal(lua, { declare: TWO_ROLES })).text).toBe(message);
  });

  it("names the frontmatter when the prompt declares no role", async () => {
    const run = await runModelPrompt(
      [
        "---",
        "name: t",
        "description: t",
        "runvil: 0",
        "---",
        "",
        "# T",
        "",
        "```lua",
        "local ok, err = pcall(models.default, 'writer')",
        "return tostring(err)",
        "```",
        "",
      ].join("\n"),
    );
    expect(succeeded(run)).toBe(
      'models.default: "writer" is not a model role of this prompt; declared roles: [] (declare roles under models: in the frontmatter)',
    );
  });

  it("checks models.default's arguments in the H1 pass", async () => {
    const run = await runModelPrompt(
      modelPrompt("return 'unreached'", {
        h1: "local a = select(2, pcall(models.default))\nlocal b = select(2, pcall(models.default, {}))\nreturn tostring(a) .. '|' .. tostring(b)",
      }),
    );
    expect(succeeded(run)).toBe("models.default takes (label)|label must be a string, got table");
  });

  it("selects the section's model: the latest use, else the default as it stood at entry", async () => {
    const run = await runModelPrompt(
      [
        "---",
        "name: t",
        "description: t",
        "runvil: 0",
        "models:",
        "  writer: {}",
        "  critic: {}",
        "---",
        "",
        "# T",
        "",
        "```lua",
        "models.default('critic')",
        "models.default('writer')",
        "var.h1 = models.infer('h1')",
        "```",
        "",
        "## One",
        "",
        "```lua",
        "var.one = models.infer('one')",
        "models.use('critic')",
        "models.use('writer')",
        "models.use('critic')",
        "var.two = models.infer('two')",
        "```",
        "",
        "## Two",
        "",
        "```lua",
        "return var.h1 .. var.one .. var.two .. models.infer('three')",
        "```",
        "",
      ].join("\n"),
      {
        models: {
          bind: { writer: "w-model", critic: "c-model" },
          replies: [{ text: "a" }, { text: "b" }, { text: "c" }, { text: "d" }],
        },
      },
    );
    expect(succeeded(run)).toBe("abcd");
    expect(run.port.modelRequests.map((r) => `${r.role}:${r.model}`)).toEqual([
      "writer:w-model",
      "writer:w-model",
      "critic:c-model",
      "writer:w-model",
    ]);
  });
});

describe("models.infer", () => {
  it("runs one round with one user record, the role's system text and no tools", async () => {
    const run = await runModelPrompt(
      modelPrompt("models.use('writer') return models.infer('hi')"),
      {
        roles: [
          boundRole("writer", {
            model: "m-1",
            system: "be brief",
            settings: { temperature: 0.5, maxOutputTokens: 100, stop: ["END"] },
          }),
        ],
        models: { replies: [{ text: "answer" }] },
      },
    );
    expect(succeeded(run)).toBe("answer");
    const [request] = run.port.modelRequests;
    expect(request).toMatchObject({
      role: "writer",
      model: "m-1",
      via: "infer",
      turn: 1,
      system: "be brief",
      messages: [{ role: "user", content: "hi" }],
      tools: [],
      settings: { temperature: 0.5, maxOutputTokens: 100, stop: ["END"] },
      origin: { execution: "run-1", chain: "0", entry: "0.1", section: "Main", task: "0" },
      effect: "0.1/1",
    });
  });

  it("neither reads nor appends messages, and its reply is the text", async () => {
    const run = await runModelPrompt(
      modelPrompt(
        "models.use('writer') messages:user('q') local r = models.infer('hi') return type(r) .. '|' .. tostring(r) .. '|' .. #messages",
      ),
      { models: { replies: [{ text: "  spaced reply " }] } },
    );
    expect(succeeded(run)).toBe("string|  spaced reply |1");
    expect(run.port.modelRequests[0]?.messages).toEqual([{ role: "user", content: "hi" }]);
  });

  it("suspends inside pcall and resumes with the answer", async () => {
    expect(
      await result(
        'local ok, result = pcall(function() return models.infer("hi") end)\nreturn "pcall:" .. result',
        { h1: "models.default('writer')", models: { replies: [{ text: "answer" }] } },
      ),
    ).toBe("pcall:answer");
  });

  it("on a handle runs on the handle's role whatever models.use chose", async () => {
    const run = await runModelPrompt(
      prompt("models.use('writer') return models.get('critic'):infer('x')", { declare: TWO_ROLES }),
      { models: { bind: { critic: "c-model" }, replies: [{ text: "from critic" }] } },
    );
    expect(succeeded(run)).toBe("from critic");
    expect(run.port.modelRequests[0]).toMatchObject({ role: "critic", model: "c-model" });
  });

  it.each([
    ["models.infer('yo', { temperature = 0 })", "lua|models.infer takes (prompt)"],
    ["models.infer()", "lua|models.infer takes (prompt)"],
    ["models.infer(42)", "lua|prompt must be a string, got integer"],
    ["models.infer(4.5)", "lua|prompt must be a string, got number"],
    ["models.infer(nil)", "lua|prompt must be a string, got nil"],
    ["models.infer('')", "lua|prompt must not be empty"],
    ["models.infer('\\200')", "lua|prompt is not valid UTF-8"],
    ["models.get('writer'):infer('yo', { temperature = 0 })", "lua|handle:infer takes (prompt)"],
    ["models.get('writer'):infer()", "lua|handle:infer takes (prompt)"],
    ["models.get('writer'):infer(false)", "lua|prompt must be a string, got boolean"],
    [
      "models.get('writer').infer('yo')",
      "lua|handle:infer must be called on a model handle, as in models.get('writer'):infer(prompt)",
    ],
    [
      "models.get('writer').infer()",
      "lua|handle:infer must be called on a model handle, as in models.get('writer'):infer(prompt)",
    ],
  ])("%s raises %s before any request", async (lua, message) => {
    const out = await refusal(lua, { h1: "models.default('writer')" });
    expect(out).toEqual({ text: message, rounds: 0 });
  });

  it("refuses a section with no model, even with a role declared", async () => {
    expect(await refusal("models.infer('hi')")).toEqual({
      text: "lua|models.infer: this section has no model; call models.use(label) first, or models.default(label) in the H1 pass",
      rounds: 0,
    });
  });

  it("refuses a reply with no text as empty_model_reply with its finish reason", async () => {
    expect(
      await result(
        `local a = select(2, pcall(models.infer, 'x'))
local b = select(2, pcall(models.infer, 'y'))
return a.kind .. '|' .. a.finish_reason .. '|' .. tostring(a) .. '|' .. b.finish_reason`,
        {
          h1: "models.default('writer')",
          models: {
            replies: [{ empty: { finish_reason: "length" } }, { text: " \n\t", finish_reason: "" }],
          },
        },
      ),
    ).toBe("empty_model_reply|length|empty model reply|unknown");
  });

  it("ignores tool calls in its reply", async () => {
    expect(
      await result("return models.infer('x')", {
        h1: "models.default('writer')",
        models: {
          replies: [{ text: "text", tool_calls: [{ id: "c1", name: "grab", arguments: {} }] }],
        },
      }),
    ).toBe("text");
  });

  it("keeps a provider's context_exhausted with reason provider", async () => {
    expect(
      await result(
        `local ok, err = pcall(models.infer, 'hi')
return tostring(ok) .. '|' .. err.kind .. '|' .. err.reason .. '|' .. tostring(err)`,
        {
          h1: "models.default('writer')",
          models: {
            replies: [
              {
                fail: {
                  kind: "context_exhausted",
                  reason: "provider",
                  message: "context window exceeded",
                },
              },
            ],
          },
        },
      ),
    ).toBe("false|context_exhausted|provider|context window exceeded");
  });

  it("raises a provider's internal failure with its message, and anything else generically", async () => {
    expect(
      await result(
        `local a = select(2, pcall(models.infer, 'x'))
local b = select(2, pcall(models.infer, 'y'))
return a.kind .. '|' .. tostring(a) .. '|' .. b.kind .. '|' .. tostring(b)`,
        {
          h1: "models.default('writer')",
          models: {
            replies: [
              { fail: { kind: "internal", message: "model is down" } },
              { throw: "socket hang up" },
            ],
          },
        },
      ),
    ).toBe("internal|model is down|internal|scripted-model: the model round failed");
  });

  it("is allowed inside a local tool handler as a nested round", async () => {
    expect(
      await result(
        `tools.offer_local('grab', 'Grab', { value = 'string' }, function(args)
  return 'inferred ' .. models.infer('inner ' .. args.value)
end)
return tools.call('grab', { value = 'v' })`,
        { h1: "models.default('writer')", models: { replies: [{ text: "x" }] } },
      ),
    ).toBe("inferred x");
  });

  it("cannot suspend where a C function stands between it and the block", async () => {
    expect(
      await result(
        "local ok, err = pcall(table.sort, { 1, 2 }, function() return models.infer('x') end) return tostring(err)",
        { h1: "models.default('writer')" },
      ),
    ).toContain("attempt to yield across a C-call boundary");
  });
});

describe("an uncaught model failure", () => {
  const cause = "model round 1 of section Main on m-1 (role writer)";

  async function failure(lua: string, replies: NonNullable<ModelRunOptions["models"]>["replies"]) {
    const run = await runModelPrompt(modelPrompt(`models.use('writer')\n${lua}`), {
      models: { bind: { writer: "m-1" }, ...(replies === undefined ? {} : { replies }) },
    });
    const error = failureOf(run);
    return { kind: error.kind, message: headline(error), causes: error.causes, value: error.value };
  }

  it("ends the run as ContextExhausted with its reason and the round as its cause", async () => {
    expect(
      await failure("return models.infer('x')", [
        { fail: { kind: "context_exhausted", message: "context window exceeded" } },
      ]),
    ).toEqual({
      kind: "ContextExhausted",
      message: "context window exceeded",
      causes: [cause],
      value: { kind: "context_exhausted", fields: { reason: "provider" } },
    });
  });

  it("ends the run as Completion for a provider's internal failure, also re-raised", async () => {
    const expected = {
      kind: "Completion",
      message: "model is down",
      causes: [cause],
      value: { kind: "internal", fields: {} },
    };
    const down = [{ fail: { kind: "internal" as const, message: "model is down" } }];
    expect(await failure("models.infer('x')", down)).toEqual(expected);
    expect(
      await failure(
        "local ok, err = pcall(models.infer, 'x')\nstore.write('log.md', err.kind)\nerror(err, 0)",
        down,
      ),
    ).toEqual(expected);
  });

  it("ends the run as Completion for any other rejection and for a refused reply", async () => {
    expect(await failure("models.infer('x')", [{ throw: "socket hang up" }])).toMatchObject({
      kind: "Completion",
      message: "m-1: the model round failed",
      causes: [cause],
    });
    expect(await failure("models.infer('x')", [{ text: "x".repeat(8_388_609) }])).toMatchObject({
      kind: "Completion",
      message: "the model's reply is 8388609 bytes, over the 8388608-byte limit",
      causes: [cause],
    });
  });

  it("ends the run as Completion for an empty reply, with its finish reason", async () => {
    expect(await failure("models.infer('x')", [{ empty: { finish_reason: "length" } }])).toEqual({
      kind: "Completion",
      message: "empty model reply",
      causes: [cause],
      value: { kind: "empty_model_reply", fields: { finish_reason: "length" } },
    });
  });

  it("names the round that failed", async () => {
    expect(
      await failure("models.infer('a')\nmodels.infer('b')", [
        { text: "a" },
        { fail: { kind: "internal", message: "down" } },
      ]),
    ).toMatchObject({ causes: ["model round 2 of section Main on m-1 (role writer)"] });
  });

  it("keeps its kind and cause when a called section's failure reaches the caller", async () => {
    const run = await runModelPrompt(
      [
        "---",
        "name: t",
        "description: t",
        "runvil: 0",
        "models:",
        "  writer: {}",
        "---",
        "",
        "# T",
        "",
        "## Main",
        "",
        "```lua",
        "call('### Leaf')",
        "```",
        "",
        "### Leaf",
        "",
        "```lua",
        "models.use('writer')",
        "models.infer('x')",
        "```",
        "",
      ].join("\n"),
      { models: { replies: [{ fail: { kind: "internal", message: "model is down" } }] } },
    );
    const error = failureOf(run);
    expect([error.kind, headline(error), error.causes]).toEqual([
      "Completion",
      "model is down",
      ["model round 1 of section Leaf on scripted-model (role writer)"],
    ]);
  });

  it("leaves an internal failure that is no model round's a Lua failure", async () => {
    const run = await runModelPrompt(
      modelPrompt("local c = models.get('critic') c:infer('x')", {
        roles: "  writer: {}\n  critic: {}",
      }),
      { roles: [boundRole("writer")] },
    );
    const error = failureOf(run);
    expect([error.kind, headline(error), error.causes]).toEqual([
      "Lua",
      "model role critic is not bound to a catalog model in this run",
      [],
    ]);
  });
});

// Cases of the lua folder of /work/shared/conformance that need models.loop, copied verbatim
// (prompts as lines) and run on the scenario Host of src/tools/test-support with scripted model
// replies.
import { describe, it } from "vitest";
import { checkToolCase, type ToolCase } from "../tools/test-support/tool-case";

const files: Record<string, ToolCase[]> = {
  "09-asking-the-operator": [
    {
      name: "declaring user-input offers nothing to the model",
      prompt: [
        "---",
        "name: model-not-offered",
        "description: Runs a model loop without offering the ask tool.",
        "runvil: 0",
        "uses:",
        "  - user-input",
        "models:",
        "  writer: {}",
        "---",
        "",
        "# Model not offered",
        "",
        "## Main",
        "",
        "```lua",
        "models.use('writer')",
        "messages:user('say hi')",
        "models.loop()",
        "return messages[#messages].content",
        "```",
      ],
      models: {
        replies: [
          {
            text: "hi",
          },
        ],
      },
      expect: {
        result: "hi",
        model_requests: [
          {
            tools: [],
          },
        ],
      },
    },
    {
      name: "the model asks the operator through an offered ask tool",
      prompt: [
        "---",
        "name: model-asks",
        "description: Offers the ask tool to the model.",
        "runvil: 0",
        "uses:",
        "  - user-input",
        "models:",
        "  writer: {}",
        "---",
        "",
        "# Model asks",
        "",
        "## Main",
        "",
        "```lua",
        "models.use('writer')",
        "tools.offer('user-input/ask')",
        "messages:user('Ask the operator for a colour.')",
        "models.loop()",
        "return messages[#messages].content",
        "```",
      ],
      models: {
        replies: [
          {
            tool_calls: [
              {
                id: "call_1",
                name: "user-input_ask",
                arguments: {},
              },
            ],
            text: "",
          },
          {
            text: "done",
          },
        ],
      },
      operator: ["blue"],
      expect: {
        result: "done",
        model_requests: [
          {
            tools: ["user-input_ask"],
          },
          {
            tools: ["user-input_ask"],
          },
        ],
        events: [
          {
            type: "tool_result",
            tool_call_id: "call_1",
            alias: "user-input_ask",
            tool: "user-input/ask",
            trusted: true,
          },
        ],
      },
    },
    {
      name: "packs.offer of user-input offers the ask tool to the model",
      prompt: [
        "---",
        "name: model-asks-pack",
        "description: Offers the whole user-input Pack to the model.",
        "runvil: 0",
        "uses:",
        "  - user-input",
        "models:",
        "  writer: {}",
        "---",
        "",
        "# Model asks pack",
        "",
        "## Main",
        "",
        "```lua",
        "models.use('writer')",
        "packs.offer('user-input')",
        "messages:user('Ask the operator for a colour.')",
        "models.loop()",
        "return messages[#messages].content",
        "```",
      ],
      models: {
        replies: [
          {
            tool_calls: [
              {
                id: "call_1",
                name: "user-input_ask",
                arguments: {},
              },
            ],
            text: "",
          },
          {
            text: "done",
          },
        ],
      },
      operator: ["blue"],
      expect: {
        result: "done",
        model_requests: [
          {
            tools: ["user-input_ask"],
          },
          {
            tools: ["user-input_ask"],
          },
        ],
      },
    },
    {
      name: "a failed ask made by the model reaches it as untrusted tool output",
      prompt: [
        "---",
        "name: model-ask-fails",
        "description: Offers the ask tool to a model whose ask fails.",
        "runvil: 0",
        "uses:",
        "  - user-input",
        "models:",
        "  writer: {}",
        "---",
        "",
        "# Model ask fails",
        "",
        "## Main",
        "",
        "```lua",
        "models.use('writer')",
        "tools.offer('user-input/ask')",
        "messages:user('Ask the operator for a colour.')",
        "models.loop()",
        "return messages[#messages].content",
        "```",
      ],
      models: {
        replies: [
          {
            tool_calls: [
              {
                id: "call_1",
                name: "user-input_ask",
                arguments: {},
              },
            ],
            text: "",
          },
          {
            text: "no answer",
          },
        ],
      },
      operator: [
        {
          fail: "the operator's window closed",
        },
      ],
      expect: {
        result: "no answer",
        events: [
          {
            type: "tool_result",
            tool_call_id: "call_1",
            alias: "user-input_ask",
            tool: "user-input/ask",
            trusted: false,
          },
        ],
      },
    },
  ],
  "10-error-values": [
    {
      name: "a model call to a tool outside the scope is out_of_scope_tool",
      prompt: [
        "---",
        "name: rogue-tool",
        "description: Catches a model call to a tool the section does not offer.",
        "runvil: 0",
        "models:",
        "  writer: {}",
        "---",
        "",
        "# Rogue tool",
        "",
        "## Main",
        "",
        "```lua",
        "models.use('writer')",
        "messages:user('go')",
        "local ok, err = pcall(models.loop)",
        "return err.kind .. '|' .. err.name .. '|' .. tostring(err)",
        "```",
      ],
      models: {
        replies: [
          {
            tool_calls: [
              {
                id: "call_1",
                name: "rogue",
                arguments: {},
              },
            ],
            text: "",
          },
        ],
      },
      expect: {
        result_matches:
          '^out_of_scope_tool\\|rogue\\|tool "rogue" is not in this section\'s scope;',
      },
    },
    {
      name: "an empty model reply from models.loop carries its finish reason",
      prompt: [
        "---",
        "name: empty-reply",
        "description: Catches an empty model reply.",
        "runvil: 0",
        "models:",
        "  writer: {}",
        "---",
        "",
        "# Empty reply",
        "",
        "## Main",
        "",
        "```lua",
        "models.use('writer')",
        "messages:user('go')",
        "local ok, err = pcall(models.loop)",
        "return err.kind .. '|' .. tostring(err.finish_reason) .. '|' .. tostring(err)",
        "```",
      ],
      models: {
        replies: [
          {
            empty: {
              finish_reason: "length",
            },
          },
        ],
      },
      expect: {
        result_matches: "^empty_model_reply\\|length\\|.",
      },
    },
    {
      name: "an argument error from models.loop is kind lua",
      prompt: [
        "---",
        "name: loop-arguments",
        "description: Passes an extra argument to models.loop.",
        "runvil: 0",
        "models:",
        "  writer: {}",
        "---",
        "",
        "# Loop arguments",
        "",
        "## Main",
        "",
        "```lua",
        "models.use('writer')",
        "messages:user('go')",
        "local ok, err = pcall(models.loop, function() end, 'extra')",
        "return err.kind .. ':' .. tostring(err)",
        "```",
      ],
      expect: {
        result_matches: "^lua:models\\.loop takes \\(compactor\\?\\)",
        model_requests: [],
      },
    },
  ],
  "11-raising-and-catching": [
    {
      name: "an uncaught empty model reply from models.loop ends the run as Completion",
      prompt: [
        "---",
        "name: empty-reply-uncaught",
        "description: Lets an empty model reply end the run.",
        "runvil: 0",
        "models:",
        "  writer: {}",
        "---",
        "",
        "# Empty reply uncaught",
        "",
        "## Main",
        "",
        "```lua",
        "models.use('writer')",
        "messages:user('go')",
        "models.loop()",
        "return 'unreached'",
        "```",
      ],
      models: {
        replies: [
          {
            empty: {
              finish_reason: "length",
            },
          },
        ],
      },
      expect: {
        outcome: "failed",
        error: {
          kind: "Completion",
        },
      },
    },
    {
      name: "an uncaught context_exhausted from models.loop ends the run as ContextExhausted",
      prompt: [
        "---",
        "name: loop-context",
        "description: Lets a model round that runs out of context end the run.",
        "runvil: 0",
        "models:",
        "  writer: {}",
        "---",
        "",
        "# Loop context",
        "",
        "## Main",
        "",
        "```lua",
        "models.use('writer')",
        "messages:user('go')",
        "models.loop()",
        "return 'unreached'",
        "```",
      ],
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
      expect: {
        outcome: "failed",
        error: {
          kind: "ContextExhausted",
        },
      },
    },
  ],
};

for (const [file, cases] of Object.entries(files)) {
  describe(file, () => {
    for (const c of cases) it(c.name, async () => void (await checkToolCase(c)));
  });
}

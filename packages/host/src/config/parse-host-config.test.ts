import { describe, expect, it } from "vitest";
import { HostConfigError } from "./host-config-error";
import { HOST_CONFIG_FILE, parseHostConfig } from "./parse-host-config";

function problem(text: string): string {
  try {
    parseHostConfig(HOST_CONFIG_FILE, text);
  } catch (error) {
    if (error instanceof HostConfigError) return error.message;
    throw error;
  }
  throw new Error("expected a HostConfigError");
}

describe("parseHostConfig", () => {
  it("reads plugins and services", () => {
    const config = parseHostConfig(
      HOST_CONFIG_FILE,
      JSON.stringify({
        $schema: "./schema.json",
        plugins: [
          { module: "@runvil/plugin-web" },
          { module: "./notes.js", export: "notesPlugin", options: { root: "notes" } },
        ],
        services: { "acme/api-key": "k" },
      }),
    );
    expect(config).toEqual({
      plugins: [
        { key: "plugins[0]", module: "@runvil/plugin-web", export: undefined, options: undefined },
        {
          key: "plugins[1]",
          module: "./notes.js",
          export: "notesPlugin",
          options: { root: "notes" },
        },
      ],
      services: { "acme/api-key": "k" },
    });
    expect(parseHostConfig("x.json", '{"plugins":[]}')).toEqual({ plugins: [], services: {} });
    expect(parseHostConfig("x.json", '{"plugins":[],"journal":"runs/j.db"}').journal).toBe(
      "runs/j.db",
    );
    expect(parseHostConfig("x.json", '{"plugins":[],"journal":false}').journal).toBe(false);
    expect(
      parseHostConfig("x.json", '{"plugins":[],"otel":{"endpoint":"https://otel.local/v1/traces"}}')
        .otel,
    ).toEqual({ endpoint: "https://otel.local/v1/traces" });
  });

  it("names the file and the key path in every error", () => {
    const cases: [string, string][] = [
      ["{", "not valid JSON: "],
      ["[]", "the configuration must be a JSON object"],
      ["{}", "plugins is required"],
      ['{"plugins":{}}', "plugins must be an array"],
      [
        '{"plugins":[], "plugin": []}',
        "plugin is not a known key (known: plugins, services, providers, defaultModel, journal, budget, otel)",
      ],
      ['{"plugins":["web"]}', "plugins[0] must be an object"],
      ['{"plugins":[{}]}', "plugins[0].module is required"],
      ['{"plugins":[{"module":"a"},{"module":7}]}', "plugins[1].module must be a string"],
      ['{"plugins":[{"module":""}]}', "plugins[0].module must not be empty"],
      ['{"plugins":[{"module":"a","export":1}]}', "plugins[0].export must be a string"],
      ['{"plugins":[{"module":"a","export":""}]}', "plugins[0].export must not be empty"],
      [
        '{"plugins":[{"module":"a","option":{}}]}',
        "plugins[0].option is not a known key (known: module, export, options)",
      ],
      [
        '{"plugins":[{"module":"a","my key":{}}]}',
        'plugins[0]."my key" is not a known key (known: module, export, options)',
      ],
      ['{"plugins":[],"services":[]}', "services must be an object"],
      ['{"plugins":[],"journal":true}', "journal must be a file path, a postgres:// URL or false"],
      ['{"plugins":[],"journal":""}', "journal must be a file path, a postgres:// URL or false"],
      ['{"plugins":[],"otel":"http://localhost:4318"}', "otel must be an object"],
      ['{"plugins":[],"otel":{}}', "otel.endpoint is required"],
      [
        '{"plugins":[],"otel":{"endpoint":"http://a/v1/traces","headers":{}}}',
        "otel.headers is not a known key (known: endpoint)",
      ],
      [
        '{"plugins":[],"otel":{"endpoint":"localhost:4318"}}',
        "otel.endpoint must be the http(s) URL of an OTLP traces endpoint (such as http://localhost:4318/v1/traces), got localhost:4318",
      ],
      [
        '{"plugins":[],"otel":{"endpoint":4318}}',
        "otel.endpoint must be the http(s) URL of an OTLP traces endpoint (such as http://localhost:4318/v1/traces), got 4318",
      ],
    ];
    for (const [text, detail] of cases) {
      const message = problem(text);
      if (detail.endsWith(": "))
        expect(message.startsWith(`runvil.config.json: ${detail}`)).toBe(true);
      else expect(message).toBe(`runvil.config.json: ${detail}`);
    }
  });
});

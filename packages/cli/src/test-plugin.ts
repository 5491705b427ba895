import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Writes a folder holding a plugin module and the runvil.config.json that loads it (tests
 * only). The plugin adds the Pack `test/echo`: `echo/say {text}` answers its text (trusted),
 * `echo/boom` throws a plain Error (`kaboom`), and its prelude defines `shout(text)`, which
 * calls `echo/say`. It also adds the model provider `echo` serving `echo-model` (8,192-token
 * context, tools; a round answers `echo: {the last record's content}`) and `boom-model` (no
 * tools; a round throws a plain Error, `model wire cut`) and `priced-echo-model` (echoes like
 * `echo-model`, priced $2 / $8 / $0.5 cached per million tokens; each round reports 1000 input
 * tokens of which 400 cached and 100 output: $0.0022). Returns the folder and the config
 * file's path.
 */
export function echoPluginDir(): { dir: string; config: string } {
  const dir = mkdtempSync(join(tmpdir(), "runvil-echo-plugin-"));
  writeFileSync(
    join(dir, "echo-plugin.mjs"),
    `export const echoPlugin = {
  name: "echo-plugin",
  setup(api) {
    api.addPack({
      vendor: "test",
      name: "echo",
      description: "Echoes.",
      prelude: 'local pack = ...\\nfunction shout(text) return tools.call(pack .. "/say", { text = string.upper(text) }) end',
      tools: [
        {
          id: "echo/say",
          description: "Answers its text.",
          parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
          trust: "trusted",
          run: (args) => args.text,
        },
        {
          id: "echo/boom",
          description: "Throws.",
          parameters: { type: "object", properties: {} },
          trust: "trusted",
          run: () => { throw new Error("kaboom"); },
        },
      ],
    });
    api.addModelProvider({
      specificationVersion: 1,
      name: "echo",
      models: [
        { id: "echo-model", contextWindow: 8192, maxOutputTokens: 1024, tools: true },
        { id: "boom-model", contextWindow: 4096, maxOutputTokens: 512, tools: false },
        {
          id: "priced-echo-model",
          contextWindow: 8192,
          maxOutputTokens: 1024,
          tools: true,
          prices: { inputPerMillion: 2, outputPerMillion: 8, cachedInputPerMillion: 0.5 },
        },
      ],
      async round(request) {
        if (request.model === "boom-model") throw new Error("model wire cut");
        const last = request.messages[request.messages.length - 1];
        return {
          text: "echo: " + (last === undefined ? "" : last.content),
          toolCalls: [],
          finishReason: "stop",
          usage:
            request.model === "priced-echo-model"
              ? { inputTokens: 1000, outputTokens: 100, cachedInputTokens: 400 }
              : { inputTokens: 1, outputTokens: 1 },
        };
      },
    });
  },
};
`,
  );
  const config = join(dir, "runvil.config.json");
  writeFileSync(config, '{ "plugins": [{ "module": "./echo-plugin.mjs" }] }');
  return { dir, config };
}

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createHost } from "../host";
import { HostConfigError } from "./host-config-error";
import { findHostConfig, loadHostConfig } from "./load-host-config";

const root = mkdtempSync(join(tmpdir(), "runvil-host-config-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, text: string): string {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

function pluginSource(name: string, pack = name): string {
  return `{
  name: ${JSON.stringify(name)},
  setup(api, options) {
    api.addPack({
      vendor: "acme",
      name: ${JSON.stringify(pack)},
      description: JSON.stringify(options ?? null),
      tools: [],
    });
  },
}`;
}

write("project/plugins/local.mjs", `export default ${pluginSource("local")};\n`);
write(
  "project/plugins/named.mjs",
  `export const helper = 1;\nexport const notesPlugin = ${pluginSource("named")};\n`,
);
write(
  "project/plugins/two.mjs",
  `export const a = ${pluginSource("a")};\nexport const b = ${pluginSource("b")};\n`,
);
write("project/plugins/none.mjs", "export const value = 1;\n");
write("project/plugins/broken.mjs", "export default {;\n");
write(
  "node_modules/fake-plugin/package.json",
  JSON.stringify({
    name: "fake-plugin",
    type: "module",
    exports: {
      ".": { types: "./index.d.ts", import: "./dist/index.js" },
      "./extra": { require: "./dist/extra.cjs", default: "./dist/extra.js" },
      "./features/*": "./dist/features/*.js",
      "./package.json": "./package.json",
    },
  }),
);
write(
  "node_modules/fake-plugin/dist/index.js",
  `export default ${pluginSource("fake", "fake")};\n`,
);
write(
  "node_modules/fake-plugin/dist/extra.js",
  `export default ${pluginSource("extra", "extra")};\n`,
);
write(
  "node_modules/fake-plugin/dist/features/one.js",
  `export default ${pluginSource("feature", "one")};\n`,
);
write(
  "node_modules/@scope/cjs-plugin/package.json",
  JSON.stringify({ name: "@scope/cjs-plugin", main: "lib/main" }),
);
write(
  "node_modules/@scope/cjs-plugin/lib/main.js",
  `module.exports = ${pluginSource("cjs", "cjs")};\n`,
);

async function configError(config: unknown): Promise<string> {
  const file = write("project/runvil.config.json", JSON.stringify(config));
  try {
    await loadHostConfig(file);
  } catch (error) {
    if (error instanceof HostConfigError) return error.message.slice(file.length + 2);
    throw error;
  }
  throw new Error("expected a HostConfigError");
}

describe("loadHostConfig", () => {
  it("loads relative modules and packages, with their options and services", async () => {
    const file = write(
      "project/runvil.config.json",
      JSON.stringify({
        plugins: [
          { module: "./plugins/local.mjs", options: { root: "notes" } },
          { module: "./plugins/named.mjs" },
          { module: "fake-plugin" },
          { module: "fake-plugin/extra" },
          { module: "fake-plugin/features/one" },
          { module: "@scope/cjs-plugin" },
          { module: "./plugins/two.mjs", export: "b" },
        ],
        services: { "acme/api-key": "k" },
        budget: { run: { max_cost_usd: 2 } },
      }),
    );
    const options = await loadHostConfig(file);
    expect(options.budget).toEqual({ run: { maxCostUsd: 2 } });
    expect(options.plugins.map((entry) => entry.plugin.name)).toEqual([
      "local",
      "named",
      "fake",
      "extra",
      "feature",
      "cjs",
      "b",
    ]);
    expect(options.plugins[0]?.options).toEqual({ root: "notes" });
    expect(options.services).toEqual({ "acme/api-key": "k" });
    const host = await createHost(options);
    expect(host.packs[0]?.description).toBe('{"root":"notes"}');
    expect(host.services.get("acme/api-key")).toBe("k");
  });

  it("says which module cannot be found or loaded", async () => {
    expect(await configError({ plugins: [{ module: "./plugins/missing.mjs" }] })).toBe(
      `plugins[0].module: cannot find "./plugins/missing.mjs": no file ${join(root, "project/plugins/missing.mjs")}`,
    );
    expect(await configError({ plugins: [{ module: "no-such-plugin" }] })).toBe(
      `plugins[0].module: cannot find "no-such-plugin": no package no-such-plugin in node_modules from ${join(root, "project")} up`,
    );
    expect(await configError({ plugins: [{ module: "fake-plugin/hidden" }] })).toBe(
      'plugins[0].module: cannot find "fake-plugin/hidden": package fake-plugin does not export ./hidden',
    );
    expect(await configError({ plugins: [{ module: "./plugins/broken.mjs" }] })).toMatch(
      /^plugins\[0\]\.module: cannot load "\.\/plugins\/broken\.mjs": /,
    );
  });

  it("takes a module it cannot resolve from the builtins, and a resolvable one from disk", async () => {
    const builtin = { name: "@runvil/plugin-web", setup: () => undefined };
    const file = write(
      "project/runvil.config.json",
      JSON.stringify({
        plugins: [
          { module: "@runvil/plugin-web", options: { fetch: { timeoutMs: 5 } } },
          { module: "./plugins/local.mjs" },
        ],
      }),
    );
    const local = { name: "not-used", setup: () => undefined };
    const options = await loadHostConfig(file, {
      builtins: { "@runvil/plugin-web": { default: builtin }, "./plugins/local.mjs": local },
    });
    expect(options.plugins[0]).toEqual({
      plugin: builtin,
      options: { fetch: { timeoutMs: 5 } },
      configDir: dirname(resolve(file)),
    });
    expect(options.plugins[1]?.plugin.name).toBe("local");
    expect(
      await loadHostConfig(write("other/runvil.config.json", '{"plugins":[{"module":"x"}]}'), {
        builtins: {},
      }).catch((error: Error) => error.message.split(": ").slice(1).join(": ")),
    ).toBe(
      'plugins[0].module: cannot find "x": no package x in node_modules from ' +
        join(root, "other") +
        " up",
    );
  });

  it("says when a module has no plugin to pick", async () => {
    expect(await configError({ plugins: [{ module: "./plugins/none.mjs" }] })).toBe(
      'plugins[0].module: "./plugins/none.mjs" exports no plugin (an object with a string name and a setup function)',
    );
    expect(await configError({ plugins: [{ module: "./plugins/two.mjs" }] })).toBe(
      'plugins[0].module: "./plugins/two.mjs" exports several plugins (a, b); choose one with "export"',
    );
    expect(await configError({ plugins: [{ module: "./plugins/two.mjs", export: "c" }] })).toBe(
      'plugins[0].export: "c" is not exported by "./plugins/two.mjs"',
    );
    expect(
      await configError({ plugins: [{ module: "./plugins/named.mjs", export: "helper" }] }),
    ).toBe(
      'plugins[0].export: "helper" of "./plugins/named.mjs" is not a plugin (an object with a string name and a setup function)',
    );
  });

  it("names the file as given when it cannot be read or checked", async () => {
    const missing = join(root, "nowhere", "runvil.config.json");
    await expect(loadHostConfig(missing)).rejects.toThrow(
      `${missing}: cannot read the file: no such file`,
    );
    const file = write("bad/runvil.config.json", '{"plugins":[{"module":7}]}');
    await expect(loadHostConfig(file)).rejects.toThrow(
      `${file}: plugins[0].module must be a string`,
    );
  });
});

describe("loadHostConfig providers", () => {
  const plugin = { name: "providers-plugin", setup: () => undefined };
  write("project/providers/fake-provider.mjs", "export function createFake() { return 1; }\n");

  it("loads each provider's module from the file's directory or the builtins, in order", async () => {
    const file = write(
      "project/providers.json",
      JSON.stringify({
        plugins: [{ module: "./plugins/local.mjs" }],
        providers: {
          local: { module: "./providers/fake-provider.mjs", options: { baseURL: "http://x" } },
          vendor: { module: "@ai-sdk/fake", models: {} },
        },
        defaultModel: "local:m",
      }),
    );
    const seen: unknown[] = [];
    const options = await loadHostConfig(file, {
      providers: {
        builtins: { "@ai-sdk/fake": async () => ({ createVendor: "builtin" }) },
        plugin: (entries) => {
          seen.push(entries);
          return { plugin, options: entries?.map((e) => e.name) };
        },
      },
    });
    expect(options.defaultModel).toBe("local:m");
    expect(options.plugins.map((entry) => entry.plugin.name)).toEqual([
      "local",
      "providers-plugin",
    ]);
    expect(options.plugins[1]?.options).toEqual(["local", "vendor"]);
    const entries = seen[0] as {
      key: string;
      namespace: Record<string, unknown>;
      settings: unknown;
    }[];
    expect(entries.map((e) => [e.key, Object.keys(e.namespace), e.settings])).toEqual([
      ["providers.local", ["createFake"], { options: { baseURL: "http://x" } }],
      ["providers.vendor", ["createVendor"], { models: {} }],
    ]);
  });

  it("asks the loader with no entries when the file names no providers", async () => {
    const file = write("project/no-providers.json", '{"plugins":[]}');
    const seen: unknown[] = [];
    const options = await loadHostConfig(file, {
      providers: {
        plugin: (entries) => {
          seen.push(entries);
          return undefined;
        },
      },
    });
    expect(seen).toEqual([undefined]);
    expect(options.plugins).toEqual([]);
  });

  it("names the file and the provider's key in every error", async () => {
    const file = write(
      "project/bad-providers.json",
      '{"plugins":[],"providers":{"x":{"module":"@ai-sdk/nowhere"}}}',
    );
    await expect(loadHostConfig(file, { providers: { plugin: () => undefined } })).rejects.toThrow(
      `${file}: providers.x.module: cannot find "@ai-sdk/nowhere"`,
    );
    await expect(loadHostConfig(file)).rejects.toThrow(
      `${file}: providers: this host cannot load model providers`,
    );
    const ok = write(
      "project/ok-providers.json",
      '{"plugins":[],"providers":{"x":{"module":"./providers/fake-provider.mjs"}}}',
    );
    await expect(
      loadHostConfig(ok, {
        providers: {
          plugin: () => {
            throw new Error("providers.x.models is required");
          },
        },
      }),
    ).rejects.toThrow(`${ok}: providers.x.models is required`);
    expect(await configError({ plugins: [], providers: [] })).toBe("providers must be an object");
    expect(await configError({ plugins: [], providers: { x: 1 } })).toBe(
      "providers.x must be an object",
    );
    expect(await configError({ plugins: [], providers: { x: {} } })).toBe(
      'providers.x.module is required (such as "@ai-sdk/openai")',
    );
    expect(await configError({ plugins: [], defaultModel: 3 })).toBe(
      "defaultModel must be a string",
    );
  });
});

describe("findHostConfig", () => {
  it("finds the nearest runvil.config.json upward", async () => {
    const file = write("tree/runvil.config.json", '{"plugins":[]}');
    mkdirSync(join(root, "tree/a/b"), { recursive: true });
    expect(await findHostConfig(join(root, "tree/a/b"))).toBe(file);
    expect(await findHostConfig(join(root, "tree"))).toBe(file);
  });

  it("searches a directory holding .git and stops there", async () => {
    write("outer/runvil.config.json", '{"plugins":[]}');
    mkdirSync(join(root, "outer/repo/.git"), { recursive: true });
    mkdirSync(join(root, "outer/repo/src"), { recursive: true });
    expect(await findHostConfig(join(root, "outer/repo/src"))).toBeUndefined();
    const inner = write("outer/repo/runvil.config.json", '{"plugins":[]}');
    expect(await findHostConfig(join(root, "outer/repo/src"))).toBe(inner);
  });

  it("answers undefined when no directory up to the root has one", async () => {
    mkdirSync(join(root, "empty"), { recursive: true });
    const found = await findHostConfig(join(root, "empty"));
    expect(found === undefined || !found.startsWith(root)).toBe(true);
  });
});

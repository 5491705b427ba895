import {
  definePack,
  definePlugin,
  type ModelProvider,
  type PluginApi,
  SEARCH_PROVIDER,
  type SearchProvider,
} from "@runvil/sdk";
import { describe, expect, it } from "vitest";
import { createHost } from "./host";
import { HostSetupError } from "./host-setup-error";
import { packPlugin, rejectionOf, testPack, testProvider, usesPrompt } from "./test-support";

async function setupError(
  plugins: Parameters<typeof createHost>[0]["plugins"],
): Promise<HostSetupError> {
  const error = await rejectionOf(createHost({ plugins }));
  if (!(error instanceof HostSetupError))
    throw new Error(`expected a HostSetupError: ${String(error)}`);
  return error;
}

const PROVIDER: ModelProvider = testProvider("scripted", ["m-1"]);

describe("createHost", () => {
  it("registers every plugin's Packs, services and model providers", async () => {
    const search: SearchProvider = { search: async () => "results" };
    const host = await createHost({
      plugins: [
        { plugin: packPlugin("one", [testPack("runvil/web", ["web/fetch", "web/search"])]) },
        {
          plugin: definePlugin({
            name: "two",
            setup(api) {
              api.addPack(testPack("acme/notes", ["notes/read"], { prelude: "notes = {}" }));
              api.provideService(SEARCH_PROVIDER, search);
              api.addModelProvider(PROVIDER);
            },
          }),
        },
      ],
    });
    expect(host.packs).toEqual([
      {
        fullName: "runvil/web",
        vendor: "runvil",
        id: "web",
        description: "The runvil/web Pack.",
        plugin: "one",
        services: [],
        tools: ["web/fetch", "web/search"],
        hasPrelude: false,
        startFailure: null,
      },
      {
        fullName: "acme/notes",
        vendor: "acme",
        id: "notes",
        description: "The acme/notes Pack.",
        plugin: "two",
        services: [],
        tools: ["notes/read"],
        hasPrelude: true,
        startFailure: null,
      },
    ]);
    expect(host.services.get(SEARCH_PROVIDER)).toBe(search);
    expect(host.modelProviders).toEqual([PROVIDER]);
    expect([...host.models.keys()]).toEqual(["m-1"]);
    expect(host.models.get("m-1")).toEqual({
      info: PROVIDER.models[0],
      provider: PROVIDER,
      plugin: "two",
    });
    expect(host.dropped).toEqual([]);
  });

  it("passes each plugin its own options, typed by the plugin", async () => {
    const seen: unknown[] = [];
    const typed = definePlugin<{ greeting: string }>({
      name: "typed",
      setup(_api, options) {
        seen.push(options?.greeting);
      },
    });
    const bare = definePlugin({
      name: "bare",
      setup(_api, options) {
        seen.push(options);
      },
    });
    await createHost({
      plugins: [{ plugin: typed, options: { greeting: "hi" } }, { plugin: bare }],
    });
    expect(seen).toEqual(["hi", undefined]);
  });

  it("calls the plugins in order and awaits each setup", async () => {
    const order: string[] = [];
    const slow = definePlugin({
      name: "slow",
      async setup() {
        await new Promise((resolve) => setImmediate(resolve));
        order.push("slow");
      },
    });
    const fast = definePlugin({ name: "fast", setup: () => void order.push("fast") });
    await createHost({ plugins: [{ plugin: slow }, { plugin: fast }] });
    expect(order).toEqual(["slow", "fast"]);
  });

  it("lays HostOptions.services over the plugins' services", async () => {
    const host = await createHost({
      plugins: [{ plugin: packPlugin("p", [], { "acme/key": "from plugin", "acme/other": 1 }) }],
      services: { "acme/key": "from options", "acme/other": undefined },
    });
    expect(host.services.get("acme/key")).toBe("from options");
    expect(host.services.has("acme/other")).toBe(false);
  });

  it("builds every Pack; one whose start throws is unavailable with the message as reason", async () => {
    const started: string[] = [];
    const host = await createHost({
      plugins: [
        {
          plugin: packPlugin("p", [
            testPack("runvil/web", ["web/fetch"], {
              start: () => {
                throw new Error("the web Pack failed to start");
              },
            }),
            testPack("runvil/kit", [], {
              start: async () => {
                started.push("kit");
              },
            }),
            testPack("runvil/late", [], { start: () => Promise.reject(new Error("no index")) }),
          ]),
        },
      ],
    });
    expect(started).toEqual(["kit"]);
    expect(host.packs.map((pack) => [pack.fullName, pack.startFailure])).toEqual([
      ["runvil/web", "the web Pack failed to start"],
      ["runvil/kit", null],
      ["runvil/late", "no index"],
    ]);
  });

  it("lists dropped tools and keeps the Pack's other tools", async () => {
    const host = await createHost({
      plugins: [
        {
          plugin: packPlugin("p", [
            testPack("acme/web", ["web/fetch", "search/web"]),
            testPack("runvil/web", ["web/fetch", "Web/x"]),
          ]),
        },
      ],
    });
    expect(host.packs.map((pack) => pack.tools)).toEqual([["web/fetch"], ["web/fetch"]]);
    expect(host.dropped).toEqual([
      {
        tool: "search/web",
        pack: "web",
        reason: "a Pack's tool id escapes its Pack id; dropped",
        fullName: "acme/web",
      },
      {
        tool: "Web/x",
        pack: "web",
        reason:
          "a Pack's tool id is malformed (segments may contain only lowercase ASCII letters, digits, '-', '_', '.'); dropped",
        fullName: "runvil/web",
      },
    ]);
  });

  it("rejects a Pack whose vendor or name is not a valid segment", async () => {
    const cases: [string, string, string][] = [
      [
        "Acme",
        "notes",
        "Pack vendor \"Acme\" is invalid: segments may contain only lowercase ASCII letters, digits, '-', '_', '.'",
      ],
      [
        "acme/x",
        "notes",
        "Pack vendor \"acme/x\" is invalid: a vendor is one segment, such as `acme`, with no '/'",
      ],
      ["", "notes", 'Pack vendor "" is invalid: segments must not be empty'],
      [
        "acme",
        "web/fetch",
        "Pack name \"web/fetch\" is invalid: a Pack id is one segment, such as `web`, with no '/'",
      ],
      ["acme", "", 'Pack name "" is invalid: segments must not be empty'],
    ];
    for (const [vendor, name, problem] of cases) {
      const pack = definePack({ vendor, name, description: "x", tools: [] });
      const error = await setupError([{ plugin: packPlugin("@acme/plugin", [pack]) }]);
      expect(error.message).toBe(`plugin @acme/plugin: ${problem}`);
      expect(error.plugin).toBe("@acme/plugin");
    }
  });

  it("rejects a Pack of the wrong shape", async () => {
    const cases: [object, string][] = [
      [{ tools: "web/fetch" }, "Pack acme/notes: tools must be an array, got string"],
      [{ description: 3 }, "Pack acme/notes: description must be a string, got number"],
      [
        { services: [""] },
        "Pack acme/notes: services must be an array of service ids (non-empty strings)",
      ],
      [{ prelude: 1 }, "Pack acme/notes: prelude must be a string, got number"],
      [{ start: "go" }, "Pack acme/notes: start must be a function, got string"],
      [{ close: 1 }, "Pack acme/notes: close must be a function, got number"],
    ];
    for (const [overrides, problem] of cases) {
      const pack = { ...testPack("acme/notes"), ...overrides };
      const error = await setupError([{ plugin: packPlugin("p", [pack as never]) }]);
      expect(error.message).toBe(`plugin p: ${problem}`);
    }
    const notAPack = await setupError([{ plugin: packPlugin("p", [null as never]) }]);
    expect(notAPack.message).toBe("plugin p: addPack needs a Pack, got null");
  });

  it("rejects a fully qualified name added twice, naming both plugins", async () => {
    const error = await setupError([
      { plugin: packPlugin("first", [testPack("acme/notes")]) },
      { plugin: packPlugin("second", [testPack("acme/notes")]) },
    ]);
    expect(error.message).toBe(
      "plugin second: Pack acme/notes is already registered by plugin first",
    );
    const same = await setupError([
      { plugin: packPlugin("one", [testPack("acme/notes"), testPack("acme/notes")]) },
    ]);
    expect(same.message).toBe("plugin one: Pack acme/notes is already registered by this plugin");
  });

  it("allows one Pack id from several vendors", async () => {
    const host = await createHost({
      plugins: [{ plugin: packPlugin("p", [testPack("runvil/web"), testPack("acme/web")]) }],
    });
    expect(host.packs.map((pack) => pack.fullName)).toEqual(["runvil/web", "acme/web"]);
  });

  it("rejects even when the plugin catches the registration error", async () => {
    const sneaky = definePlugin({
      name: "sneaky",
      setup(api) {
        try {
          api.addPack(testPack("Bad/notes"));
        } catch {
          // swallowed
        }
      },
    });
    const error = await setupError([{ plugin: sneaky }]);
    expect(error.message).toMatch(/^plugin sneaky: Pack vendor "Bad" is invalid/);
  });

  it("rejects a service id provided twice, and a bad service id", async () => {
    const twice = await setupError([
      { plugin: packPlugin("a", [], { [SEARCH_PROVIDER]: {} }) },
      { plugin: packPlugin("b", [], { [SEARCH_PROVIDER]: {} }) },
    ]);
    expect(twice.message).toBe(
      "plugin b: service runvil/search-provider is already provided by plugin a",
    );
    const bad = await setupError([
      { plugin: definePlugin({ name: "c", setup: (api) => api.provideService("", {}) }) },
    ]);
    expect(bad.message).toBe("plugin c: provideService needs a service id, got string");
  });

  it("rejects a model provider without its parts", async () => {
    const error = await setupError([
      {
        plugin: definePlugin({
          name: "models",
          setup: (api) =>
            api.addModelProvider({ specificationVersion: 1, name: "x" } as ModelProvider),
        }),
      },
    ]);
    expect(error.message).toBe(
      "plugin models: model provider x: round must be a function, got undefined",
    );
  });

  it("rejects a model provider of another specification version", async () => {
    const { specificationVersion: _, ...unversioned } = PROVIDER;
    const cases = [
      [{ ...PROVIDER, specificationVersion: 2 }, "speaks specification version 2"],
      [{ ...PROVIDER, specificationVersion: "1" }, 'speaks specification version "1"'],
      [unversioned, "names no specification version"],
    ] as const;
    for (const [provider, version] of cases) {
      const error = await setupError([
        {
          plugin: definePlugin({
            name: "models",
            setup: (api) => api.addModelProvider(provider as unknown as ModelProvider),
          }),
        },
      ]);
      expect(error.message).toBe(`plugin models: a model provider ${version}; this Host speaks 1`);
    }
  });

  it("wraps a setup that throws, keeping the cause", async () => {
    const cause = new Error("missing API key");
    const error = await setupError([
      {
        plugin: definePlugin({
          name: "@acme/plugin-notes",
          async setup() {
            throw cause;
          },
        }),
      },
    ]);
    expect(error.message).toBe("plugin @acme/plugin-notes: setup failed: missing API key");
    expect(error.cause).toBe(cause);
  });

  it("rejects an entry that is not a plugin", async () => {
    const error = await setupError([{ plugin: { name: "x" } as never }]);
    expect(error.message).toBe(
      "plugin plugins[0]: not a plugin (expected an object with a string name and a setup function)",
    );
    expect(error.plugin).toBe("plugins[0]");
  });

  it("freezes the registry when setup ends: later calls throw and change nothing", async () => {
    let saved: PluginApi | undefined;
    const keeper = definePlugin({
      name: "keeper",
      setup(api) {
        saved = api;
      },
    });
    const host = await createHost({ plugins: [{ plugin: keeper }] });
    expect(() => saved?.addPack(testPack("runvil/late", ["late/x"]))).toThrow(
      "plugin keeper: addPack was called after the Host finished setting up; the Pack registry is frozen",
    );
    expect(() => saved?.provideService("acme/key", 1)).toThrow(
      "plugin keeper: provideService was called after the Host finished setting up",
    );
    expect(() => saved?.addModelProvider(PROVIDER)).toThrow(
      "plugin keeper: addModelProvider was called after the Host finished setting up",
    );
    expect(host.packs).toEqual([]);
    const prepared = host.prepare(usesPrompt());
    expect(prepared.ok && prepared.run.catalog.tools).toEqual([]);
    expect(host.services.has("acme/key")).toBe(false);
    expect(host.modelProviders).toEqual([]);
    expect(host.models.size).toBe(0);
  });
});

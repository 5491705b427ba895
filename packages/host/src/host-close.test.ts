import { definePlugin, type PluginApi } from "@runvil/sdk";
import { describe, expect, it } from "vitest";
import { createHost, HOST_CLOSED_MESSAGE } from "./host";
import { packPlugin, testPack } from "./test-support";

describe("host.close", () => {
  it("calls every Pack's close once, at once, also for a Pack whose start threw", async () => {
    const closed: string[] = [];
    let release: () => void = () => {};
    const slow = new Promise<void>((resolve) => {
      release = resolve;
    });
    const host = await createHost({
      plugins: [
        {
          plugin: packPlugin("p", [
            testPack("acme/slow", [], {
              close: async () => {
                await slow;
                closed.push("slow");
              },
            }),
            testPack("acme/broken", [], {
              start: () => {
                throw new Error("no server");
              },
              close: () => void closed.push("broken"),
            }),
            testPack("acme/plain"),
          ]),
        },
      ],
    });
    const closing = host.close();
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toEqual(["broken"]);
    release();
    await closing;
    expect(closed).toEqual(["broken", "slow"]);
    await host.close();
    expect(closed).toEqual(["broken", "slow"]);
  });

  it("ignores a close that throws or rejects and still closes the others", async () => {
    const closed: string[] = [];
    const host = await createHost({
      plugins: [
        {
          plugin: packPlugin("p", [
            testPack("acme/a", [], {
              close: () => {
                throw new Error("boom");
              },
            }),
            testPack("acme/b", [], { close: () => Promise.reject(new Error("late boom")) }),
            testPack("acme/c", [], { close: () => void closed.push("c") }),
          ]),
        },
      ],
    });
    await expect(host.close()).resolves.toBeUndefined();
    expect(closed).toEqual(["c"]);
  });

  it("refuses to prepare once closed", async () => {
    const host = await createHost({ plugins: [{ plugin: packPlugin("p", [testPack("acme/a")]) }] });
    expect(host.prepare({ frontmatter: { uses: [], models: [] } }).ok).toBe(true);
    await host.close();
    expect(() => host.prepare({ frontmatter: { uses: [], models: [] } })).toThrow(
      HOST_CLOSED_MESSAGE,
    );
  });

  it("closes the Packs already registered when a later plugin's setup fails", async () => {
    const closed: string[] = [];
    const failing = definePlugin({
      name: "failing",
      setup() {
        throw new Error("no luck");
      },
    });
    await expect(
      createHost({
        plugins: [
          {
            plugin: packPlugin("p", [
              testPack("acme/a", [], { close: () => void closed.push("a") }),
            ]),
          },
          { plugin: failing },
        ],
      }),
    ).rejects.toThrow("plugin failing: setup failed: no luck");
    expect(closed).toEqual(["a"]);
  });
});

describe("api.configDir", () => {
  it("is the entry's configDir, and absent for an entry without one", async () => {
    const seen: (string | undefined)[] = [];
    const plugin = definePlugin({
      name: "dir",
      setup(api: PluginApi) {
        seen.push(api.configDir);
      },
    });
    await createHost({ plugins: [{ plugin, configDir: "/srv/app" }, { plugin }] });
    expect(seen).toEqual(["/srv/app", undefined]);
  });
});

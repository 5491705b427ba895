import { describe, expect, it } from "vitest";
import { exportStore } from "./export-store";
import { effect } from "./test-effects";

const notFound = (path: string) => ({
  failure: { type: "store" as const, reason: "not_found", path, message: `${path}: not found` },
});

describe("the store of a recorded run's scenario", () => {
  it("starts from what the run read or saw, and ends as the operations leave it", async () => {
    const store = await exportStore(
      "R",
      [
        effect("store", { op: "read", path: "a.md" }, { output: "A" }),
        effect("store", { op: "append", path: "log.md", text: "two\n" }, { output: undefined }),
        effect("store", { op: "read", path: "log.md" }, { output: "one\ntwo\n" }),
        effect("store", { op: "list", prefix: "d" }, { output: ["d/x", "d/y"] }),
        effect("store", { op: "read", path: "d/y" }, { output: "Y" }),
        effect(
          "store",
          { op: "edit", path: "e.md", old: "cat", new: "dog" },
          { output: undefined },
        ),
        effect("store", { op: "read", path: "gone.md" }, notFound("gone.md")),
        effect("store", { op: "write", path: "gone.md", contents: "new" }, { output: undefined }),
        effect("store", { op: "delete", path: "d/x" }, { output: undefined }),
      ],
      true,
    );
    expect(store.initial).toEqual({
      "a.md": "A",
      "d/x": "",
      "d/y": "Y",
      "e.md": "cat",
      "log.md": "one\n",
    });
    expect(store.final).toEqual({
      "a.md": "A",
      "d/y": "Y",
      "e.md": "dog",
      "gone.md": "new",
      "log.md": "one\ntwo\n",
    });
  });

  it("starts an in-memory store empty, and refuses what no starting store can answer", async () => {
    expect(
      (
        await exportStore(
          "R",
          [effect("store", { op: "write", path: "a", contents: "1" }, { output: undefined })],
          false,
        )
      ).initial,
    ).toEqual({});
    await expect(
      exportStore("R", [effect("store", { op: "read", path: "a" }, { output: "seen" })], false),
    ).rejects.toThrow(
      /^run R: effect 0\.1\/\d+ \(store read, section "Main"\): the store a scenario can start from \(the files the run read or saw\) does not answer it as recorded \(recorded output "seen"; the scenario's store gives failure /,
    );
    await expect(
      exportStore(
        "R",
        [
          effect(
            "store",
            { op: "write", path: "a", contents: Uint8Array.of(0xff) },
            { output: undefined },
          ),
        ],
        true,
      ),
    ).rejects.toThrow(/a store path or text that is not UTF-8 text/);
  });
});

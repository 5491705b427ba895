import { ToolFailure } from "@runvil/sdk";
import { TestStore, testToolContext } from "@runvil/sdk/testing";
import { describe, expect, it } from "vitest";
import { notesPack } from "../notes-pack";
import { notesPlugin } from "../notes-plugin";
import { addTool } from "./add";
import { clearTool } from "./clear";
import { listTool } from "./list";

async function failure(output: unknown): Promise<string> {
  const error = await Promise.resolve(output).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!ToolFailure.isInstance(error))
    throw new Error(`expected a ToolFailure, got ${String(error)}`);
  return error.message;
}

describe("notes/add", () => {
  it("appends a line to notes.md and answers the new count", async () => {
    const store = new TestStore();
    expect(
      await addTool.run({ text: "first" }, testToolContext({ toolId: "notes/add", store })),
    ).toBe(1);
    expect(
      await addTool.run({ text: "second" }, testToolContext({ toolId: "notes/add", store })),
    ).toBe(2);
    expect(store.files()).toEqual({ "notes.md": "- first\n- second\n" });
  });

  it("counts only the notes of a file the prompt also wrote to", async () => {
    const store = new TestStore({ "notes.md": "# Notes\n- old" });
    expect(
      await addTool.run({ text: "new" }, testToolContext({ toolId: "notes/add", store })),
    ).toBe(2);
    expect(store.files()).toEqual({ "notes.md": "# Notes\n- old\n- new\n" });
  });

  it("refuses an empty note and a note of several lines, writing nothing", async () => {
    const store = new TestStore();
    expect(
      await failure(addTool.run({ text: " " }, testToolContext({ toolId: "notes/add", store }))),
    ).toBe("notes_add: the note is empty");
    expect(
      await failure(addTool.run({ text: "a\nb" }, testToolContext({ toolId: "notes/add", store }))),
    ).toBe("notes_add: a note must be one line");
    expect(store.files()).toEqual({});
  });

  it("turns a store failure into a model-safe failure", async () => {
    const store = new TestStore({ "notes.md/old.md": "x" }); // notes.md is a directory
    expect(
      await failure(addTool.run({ text: "x" }, testToolContext({ toolId: "notes/add", store }))),
    ).toBe("notes_add: notes.md: is a directory, not a file");
  });
});

describe("notes/list", () => {
  it("answers every note oldest first, and [] without a file", async () => {
    expect(
      await listTool.run({}, testToolContext({ toolId: "notes/list", store: new TestStore() })),
    ).toEqual([]);
    const store = new TestStore({ "notes.md": "- a\n- b\n" });
    expect(await listTool.run({}, testToolContext({ toolId: "notes/list", store }))).toEqual([
      "a",
      "b",
    ]);
  });
});

describe("notes/clear", () => {
  it("deletes notes.md and answers how many notes it held", async () => {
    const store = new TestStore({ "notes.md": "- a\n- b\n", "other.txt": "x" });
    expect(await clearTool.run({}, testToolContext({ toolId: "notes/clear", store }))).toBe(2);
    expect(store.files()).toEqual({ "other.txt": "x" });
    expect(await clearTool.run({}, testToolContext({ toolId: "notes/clear", store }))).toBe(0);
  });
});

describe("the acme/notes Pack and its plugin", () => {
  it("declares the Pack, its tools and its prelude", () => {
    expect(notesPack.vendor).toBe("acme");
    expect(notesPack.name).toBe("notes");
    expect(notesPack.services ?? []).toEqual([]);
    expect(notesPack.tools.map((tool) => tool.id)).toEqual([
      "notes/add",
      "notes/list",
      "notes/clear",
    ]);
    expect(notesPack.tools.every((tool) => tool.trust === "trusted")).toBe(true);
    expect(notesPack.tools.every((tool) => tool.output === "structured")).toBe(true);
    expect(notesPack.prelude?.startsWith("local pack = ...\n")).toBe(true);
  });

  it("adds exactly the Pack to a Host", async () => {
    const added: unknown[] = [];
    await notesPlugin.setup(
      {
        addPack: (pack) => added.push(pack),
        provideService: () => {
          throw new Error("no service expected");
        },
        addModelProvider: () => {
          throw new Error("no provider expected");
        },
      },
      undefined,
    );
    expect(added).toEqual([notesPack]);
  });
});

import { describe, expect, it } from "vitest";
import { EngineError } from "../lua";
import { advertisedTools } from "./advertised-tools";
import { gateCalls } from "./scope-gate";
import { BUILTINS, rendered, renderedList, webRun } from "./test-support";

const run = webRun();
const echo = advertisedTools(run, renderedList([rendered("echo", null)]), BUILTINS);

function refusal(names: string[]): { index: number; error: EngineError } {
  const outcome = gateCalls(names, echo, run);
  if (outcome.ok) throw new Error("the gate let every call through");
  return outcome;
}

describe("gateCalls", () => {
  it("gives each call's route when every name was advertised", () => {
    expect(gateCalls(["echo", "echo"], echo, run)).toEqual({
      ok: true,
      routes: [{ kind: "local" }, { kind: "local" }],
    });
  });

  it("refuses the first name the round did not advertise, as out_of_scope_tool", () => {
    const { index, error } = refusal(["echo", "rogue", "other"]);
    expect(index).toBe(1);
    expect(error).toBeInstanceOf(EngineError);
    expect(error.kind).toBe("out_of_scope_tool");
    expect(error.fields).toEqual({ name: "rogue" });
    expect(error.message).toBe(
      `tool "rogue" is not in this section's scope; in-scope aliases: ["echo"]`,
    );
  });

  it("adds the not-offered hint for the wire name of a tool the run offers", () => {
    expect(refusal(["web_search"]).error.message).toBe(
      `tool "web_search" is not in this section's scope; in-scope aliases: ["echo"] (a catalog tool that was not offered in this section)`,
    );
  });

  it("gives no hint for a tool id or a name matching no tool", () => {
    expect(refusal(["web/search"]).error.message).toBe(
      `tool "web/search" is not in this section's scope; in-scope aliases: ["echo"]`,
    );
    expect(refusal(["nonexistent"]).error.message).toBe(
      `tool "nonexistent" is not in this section's scope; in-scope aliases: ["echo"]`,
    );
  });

  it("refuses task in a round that did not advertise the built-ins", () => {
    const { error } = refusal(["task"]);
    expect(error.fields).toEqual({ name: "task" });
    expect(error.message).toBe(
      `tool "task" is not in this section's scope; in-scope aliases: ["echo"]`,
    );
  });

  it("lists built-ins among the in-scope names when the round advertised them", () => {
    const tasks = advertisedTools(run, renderedList([], true), BUILTINS);
    const outcome = gateCalls(["rogue"], tasks, run);
    expect(outcome.ok ? "" : outcome.error.message).toBe(
      `tool "rogue" is not in this section's scope; in-scope aliases: ["task", "task_cancel", "task_status", "await_tasks"]`,
    );
  });

  it("shows an empty scope as []", () => {
    const none = advertisedTools(run, renderedList([]), []);
    const outcome = gateCalls(["rogue"], none, run);
    expect(outcome.ok ? "" : outcome.error.message).toBe(
      `tool "rogue" is not in this section's scope; in-scope aliases: []`,
    );
  });
});

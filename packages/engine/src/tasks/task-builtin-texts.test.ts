import { TASK_BUILTIN_NAMES } from "@runvil/names";
import { describe, expect, it } from "vitest";
import { sortNames } from "../tools/debug-quote";
import {
  awaitedBlock,
  TASK_BUILTIN_DEFINITIONS,
  targetNotAllowedMessage,
  taskQuotaMessage,
  taskStatusLine,
} from "./task-builtin-texts";
import { LIVE_TASKS_QUOTA_MESSAGE } from "./task-messages";

describe("the task built-ins' definitions", () => {
  it("are the four names in the chapter's order, local-tool shaped", () => {
    expect(TASK_BUILTIN_DEFINITIONS.map((d) => d.name)).toEqual([...TASK_BUILTIN_NAMES]);
    expect(TASK_BUILTIN_NAMES).toEqual(["task", "task_cancel", "task_status", "await_tasks"]);
    for (const d of TASK_BUILTIN_DEFINITIONS) {
      expect(d.tool).toBeNull();
      expect(d.description).not.toBe("");
      expect(d.parameters.type).toBe("object");
    }
    expect(Object.isFrozen(TASK_BUILTIN_DEFINITIONS)).toBe(true);
  });

  it("list their properties in bytewise order, the required ones among them", () => {
    for (const d of TASK_BUILTIN_DEFINITIONS) {
      const properties = d.parameters.properties as Record<string, unknown>;
      const keys = Object.keys(properties);
      expect(sortNames(keys)).toEqual(keys);
      for (const key of d.parameters.required as string[]) expect(keys).toContain(key);
    }
    expect(TASK_BUILTIN_DEFINITIONS[0]?.parameters.required).toEqual(["target"]);
  });
});

describe("the task built-ins' answers", () => {
  it("word the chapter's allowlist refusal with the targets in recorded order", () => {
    expect(targetNotAllowedMessage("## Other", ["## Research", "## Draft"])).toBe(
      "task: target `## Other` is not allowed; allowed targets: ## Research, ## Draft",
    );
  });

  it("name a spawn quota by the built-in", () => {
    expect(taskQuotaMessage(LIVE_TASKS_QUOTA_MESSAGE)).toBe(
      "task: this section entry already has 10000 live tasks",
    );
    expect(taskQuotaMessage("call recursion exceeded cap of 8")).toBe(
      "task: call recursion exceeded cap of 8",
    );
  });

  it("add a note to a status line only when the task has one", () => {
    expect(taskStatusLine("0.0", "running", "## A", undefined)).toBe("Task id=0.0 running: ## A");
    expect(taskStatusLine("0.0", "running", "## A", "")).toBe("Task id=0.0 running: ## A");
    expect(taskStatusLine("0.1", "waiting", "## B", "half")).toBe(
      "Task id=0.1 waiting: ## B (note: half)",
    );
  });

  it("give each outcome its await block", () => {
    expect(awaitedBlock("0.0", { kind: "succeeded", text: "done" })).toBe(
      "Task id=0.0 succeeded:\ndone",
    );
    expect(awaitedBlock("0.0", { kind: "succeeded", text: "" })).toBe("Task id=0.0 succeeded:\n");
    expect(awaitedBlock("0.0", { kind: "succeeded", text: undefined })).toBe(
      "Task id=0.0 succeeded with no result",
    );
    expect(awaitedBlock("0.2", { kind: "failed", message: "boom" })).toBe(
      "Task id=0.2 failed: boom",
    );
    expect(awaitedBlock("0.3", { kind: "cancelled" })).toBe("Task id=0.3 cancelled");
  });
});

import { describe, expect, it } from "vitest";
import { isTaskBuiltinName, TASK_BUILTIN_NAMES } from "./task-builtins";

describe("the task built-in names", () => {
  it("are the four names of the tools chapter, in the order a round lists them", () => {
    expect(TASK_BUILTIN_NAMES).toEqual(["task", "task_cancel", "task_status", "await_tasks"]);
  });

  it("are recognised exactly, and nothing else is", () => {
    for (const name of TASK_BUILTIN_NAMES) expect(isTaskBuiltinName(name)).toBe(true);
    for (const name of ["Task", "task_x", "tasks", "await_task", "web_fetch", ""]) {
      expect(isTaskBuiltinName(name)).toBe(false);
    }
  });
});

import { describe, expect, it } from "vitest";
import { TaskTree } from "./task-tree";

describe("TaskTree.happensBefore", () => {
  it("orders one task's accesses and a parent's accesses before a later spawn", () => {
    const t = new TaskTree();
    const before = t.stamp("0");
    t.spawned("0", "0.0");
    const after = t.stamp("0");
    expect(t.happensBefore(before, "0")).toBe(true);
    expect(t.happensBefore(before, "0.0")).toBe(true);
    expect(t.happensBefore(after, "0.0")).toBe(false);
    expect(t.happensBefore(t.stamp("0.0"), "0")).toBe(false);
  });

  it("orders a task before its parent once joined, and before siblings spawned after the join", () => {
    const t = new TaskTree();
    t.spawned("0", "0.0");
    t.spawned("0", "0.1");
    const a = t.stamp("0.0");
    expect(t.happensBefore(a, "0.1")).toBe(false);
    t.joined("0", ["0.0"]);
    expect(t.happensBefore(a, "0")).toBe(true);
    expect(t.happensBefore(a, "0.1")).toBe(false); // 0.1 started before the join
    t.spawned("0", "0.2");
    expect(t.happensBefore(a, "0.2")).toBe(true);
  });

  it("walks several levels: a grandchild reaches a cousin only through joins on the way up", () => {
    const t = new TaskTree();
    t.spawned("0", "0.0");
    t.spawned("0.0", "0.0.0");
    const deep = t.stamp("0.0.0");
    t.spawned("0", "0.1");
    t.spawned("0.1", "0.1.0");
    expect(t.happensBefore(deep, "0.1.0")).toBe(false);
    t.joined("0.0", ["0.0.0"]);
    t.joined("0", ["0.0"]);
    expect(t.happensBefore(deep, "0")).toBe(true);
    expect(t.happensBefore(deep, "0.1.0")).toBe(false);
    t.spawned("0", "0.2");
    t.spawned("0.2", "0.2.0");
    expect(t.happensBefore(deep, "0.2.0")).toBe(true);
  });

  it("does not carry knowledge up without the intermediate join", () => {
    const t = new TaskTree();
    t.spawned("0", "0.0");
    t.spawned("0.0", "0.0.0");
    const deep = t.stamp("0.0.0");
    t.joined("0", ["0.0"]); // 0.0 taken, but it never took 0.0.0
    expect(t.happensBefore(deep, "0")).toBe(false);
  });

  it("refuses unknown tasks and a task started twice", () => {
    const t = new TaskTree();
    expect(() => t.stamp("0.9")).toThrow("the task tree knows no task 0.9");
    t.spawned("0", "0.0");
    expect(() => t.spawned("0", "0.0")).toThrow("task 0.0 was started twice");
  });
});

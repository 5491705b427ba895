import { describe, expect, it } from "vitest";
import { SerialQueue } from "./serial-queue";

describe("SerialQueue", () => {
  it("runs tasks one at a time in queue order, whatever each one waits for", async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    let running = 0;
    const task = (name: string, ticks: number) => async () => {
      running += 1;
      expect(running).toBe(1);
      log.push(`start ${name}`);
      for (let i = 0; i < ticks; i++) await Promise.resolve();
      log.push(`end ${name}`);
      running -= 1;
      return name;
    };
    const results = await Promise.all([
      queue.run(task("a", 5)),
      queue.run(task("b", 0)),
      queue.run(task("c", 2)),
    ]);
    expect(results).toEqual(["a", "b", "c"]);
    expect(log).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"]);
  });

  it("reports a failure to its caller only and keeps going", async () => {
    const queue = new SerialQueue();
    const failed = queue.run(async () => {
      throw new Error("boom");
    });
    const next = queue.run(async () => "still runs");
    await expect(failed).rejects.toThrow("boom");
    expect(await next).toBe("still runs");
    expect(queue.pending).toBe(0);
  });
});

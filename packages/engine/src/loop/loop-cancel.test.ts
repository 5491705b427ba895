import { describe, expect, it } from "vitest";
import { GRAB, grabs, runLoop } from "./test-support";

const START = `models.use('writer')\n${GRAB}\nmessages:user('go')`;

describe("a cancel during a loop", () => {
  it("aborts the pending round: the run is cancelled, nothing more is reported", async () => {
    const controller = new AbortController();
    const run = await runLoop(`${START}\nlocal ok = pcall(models.loop)\nreturn 'swallowed'`, {
      replies: [{ hold: true }],
      signal: controller.signal,
      configure: (port) => {
        const original = port.modelRound.bind(port);
        port.modelRound = (request) => {
          setTimeout(() => controller.abort(), 10);
          return original(request);
        };
      },
    });
    expect(run.result.outcome).toBe("cancelled");
    expect(run.result).not.toHaveProperty("stopped");
    const types = run.port.types();
    expect(types).toContain("model_turn_started");
    expect(types).not.toContain("model_turn_completed");
    expect(types).not.toContain("model_turn_failed");
  });

  it("stops a handler that never returns", async () => {
    // The handler holds the thread: a polled cancel source, as a worker's cancel flag is.
    let deadline = Number.POSITIVE_INFINITY;
    const run = await runLoop(
      `models.use('writer')
tools.offer_local('spin', 'Spin', {}, function() while true do end end)
messages:user('go')
models.loop()`,
      {
        replies: [{ tool_calls: [{ id: "c1", name: "spin", arguments: {} }] }],
        shouldCancel: () => Date.now() > deadline,
        configure: (port) => {
          const original = port.modelRound.bind(port);
          port.modelRound = async (request) => {
            const reply = await original(request);
            deadline = Date.now() + 20;
            return reply;
          };
        },
      },
    );
    expect(run.result.outcome).toBe("cancelled");
    expect(run.port.types()).not.toContain("tool_call_failed");
  });
});

describe("a stop during a loop", () => {
  it("never lets a model round survive it, and starts no new round", async () => {
    const controller = new AbortController();
    const run = await runLoop(`${START}\nmodels.loop()\nreturn 'unreached'`, {
      replies: [grabs("a"), { hold: true }, { text: "never" }],
      stopSignal: controller.signal,
      configure: (port) => {
        const original = port.modelRound.bind(port);
        port.modelRound = (request) => {
          if (request.turn === 2) setTimeout(() => controller.abort(), 10);
          return original(request);
        };
      },
    });
    expect(run.result).toMatchObject({ outcome: "cancelled", stopped: true });
    expect(run.port.modelRequests).toHaveLength(2);
    expect(run.port.types().filter((t) => t === "model_turn_completed")).toHaveLength(1);
  });
});

import { hostname } from "node:os";
import { describe, expect, it } from "vitest";
import { currentOwner, ownerOf, ownerState, ownerText } from "./run-owner";
import { sleeper } from "./test-sleeper";

const onLinux = process.platform === "linux";

describe("a run's owner (the recording process)", () => {
  it("names this process by pid, host and start", () => {
    const me = currentOwner();
    expect(me).toMatchObject({ pid: process.pid, host: hostname() });
    expect(me.started).toMatch(onLinux ? /^linux:[0-9a-f-]+:\d+$/ : /^ms:\d+$/);
    expect(ownerState(me)).toBe("self");
    expect(ownerOf(ownerText(me))).toEqual(me);
  });

  it.skipIf(!onLinux)(
    "tells a live process from a killed one and from a reused pid (Linux /proc)",
    async () => {
      const child = await sleeper();
      const owner = { pid: child.pid, host: hostname(), started: child.started };
      expect(ownerState(owner)).toBe("alive");
      // The same pid, started at another time: another process that reuses the pid.
      expect(ownerState({ ...owner, started: `${child.started}0` })).toBe("gone");
      await child.kill();
      expect(ownerState(owner)).toBe("gone");
    },
  );

  it("cannot tell about a process on another host", () => {
    expect(ownerState({ ...currentOwner(), host: `${hostname()}-elsewhere` })).toBe("elsewhere");
  });

  it("reads no owner from an absent or malformed column", () => {
    expect(ownerOf(null)).toBeUndefined();
    expect(ownerOf("not json")).toBeUndefined();
    expect(ownerOf('{"pid":"1","host":"h","started":"ms:1"}')).toBeUndefined();
  });
});

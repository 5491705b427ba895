import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import type { RunOwner } from "./records";

/**
 * The process recording a run, and whether it still runs (docs/design/resume.md "A run still
 * recording"). A process is named by its pid, its host and its start: on Linux the boot id and
 * the start time in clock ticks (`/proc/PID/stat`), so a pid reused after the recorder died, or
 * after a reboot, is not taken for it; elsewhere the start instant, checked only by the pid.
 */

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    return undefined;
  }
}

/** The start of process `pid` as `/proc` tells it (`linux:{boot id}:{ticks}`), if it can. */
function linuxStart(pid: number | "self"): string | undefined {
  const boot = readText("/proc/sys/kernel/random/boot_id");
  const stat = readText(`/proc/${pid}/stat`);
  if (boot === undefined || stat === undefined) return undefined;
  // Field 2 (the command) is in parentheses and may hold spaces; field 22 is the start time.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = fields[19];
  return ticks === undefined ? undefined : `linux:${boot}:${ticks}`;
}

let self: RunOwner | undefined;

/** This process, as a run's owner. */
export function currentOwner(): RunOwner {
  self ??= {
    pid: process.pid,
    host: hostname(),
    started:
      linuxStart("self") ?? `ms:${Math.round(Date.now() - process.uptime() * 1000).toString()}`,
  };
  return self;
}

/**
 * Where a run's owner is: `self` (this process), `alive` (a running process on this host),
 * `gone` (no such process here any more: it was killed or it ended), `elsewhere` (another host,
 * which cannot be asked).
 */
export type OwnerState = "self" | "alive" | "gone" | "elsewhere";

/** Whether `owner` still runs, as far as this host can tell. */
export function ownerState(owner: RunOwner): OwnerState {
  const me = currentOwner();
  if (owner.host !== me.host) return "elsewhere";
  if (owner.pid === me.pid && owner.started === me.started) return "self";
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM: the process exists, owned by another user.
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return "gone";
  }
  if (owner.started.startsWith("linux:")) {
    // The pid runs: the same process only when it started when the owner did.
    return linuxStart(owner.pid) === owner.started ? "alive" : "gone";
  }
  return "alive";
}

/** An owner as the journal stores it (JSON text), and back; undefined for none or a bad one. */
export function ownerText(owner: RunOwner): string {
  return JSON.stringify({ pid: owner.pid, host: owner.host, started: owner.started });
}

export function ownerOf(text: string | null | undefined): RunOwner | undefined {
  if (text === null || text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as Partial<RunOwner>;
    return typeof value.pid === "number" &&
      typeof value.host === "string" &&
      typeof value.started === "string"
      ? { pid: value.pid, host: value.host, started: value.started }
      : undefined;
  } catch {
    return undefined;
  }
}

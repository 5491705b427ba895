import { argumentError, quotaError } from "../engine-error";
import type { LuaVm } from "../vm/lua-vm";
import type { HostFunction } from "../vm/values";
import { logMessageRuleBroken } from "./log-message";
import {
  LOG_ARGUMENT_COUNT_MESSAGE,
  LOG_BYTE_QUOTA_MESSAGE,
  LOG_EVENT_QUOTA_MESSAGE,
  LOG_NOT_UTF8_MESSAGE,
} from "./messages";

/** The log event quota of a section VM unless the Harness sets another: 1024 calls. */
export const DEFAULT_LOG_EVENTS = 1024;

/** Bytes of the log byte quota per allowed event. */
export const LOG_BYTES_PER_EVENT = 256;

/** The log byte quota that follows an event quota: 256 bytes per allowed checkpoint. */
export function logByteQuota(events: number): number {
  return events * LOG_BYTES_PER_EVENT;
}

/** One checkpoint a log call recorded. */
export interface LogCheckpoint {
  /** The section whose Lua called log (the prompt's title in the H1 pass). */
  readonly section: string;
  /** The message exactly as passed to log. */
  readonly message: string;
}

/** The text a checkpoint renders as: `Lua: {message}`. */
export function checkpointText(message: string): string {
  return `Lua: ${message}`;
}

/** How installLog sets up the log global of one section VM. */
export interface LogOptions {
  /** The section name every checkpoint of this VM is attributed to. */
  readonly section: string;
  /**
   * The quotas of this VM: `events`, the log event quota (1024 by default, a whole number ≥ 0);
   * the byte quota is always 256 bytes per event.
   */
  readonly quotas?: { readonly events?: number };
  /**
   * Called synchronously at each recorded checkpoint, in call order, so the Engine can emit the
   * `lua checkpoint` event at the moment of the call, between the block's other reports.
   */
  readonly onCheckpoint?: (checkpoint: LogCheckpoint) => void;
}

/** What installLog returns: the VM's checkpoints and quota use, for the Engine. */
export interface LogHandle {
  /** Every checkpoint recorded in this VM, in call order. */
  readonly checkpoints: readonly LogCheckpoint[];
  /** The event quota. */
  readonly eventQuota: number;
  /** The byte quota (256 × the event quota). */
  readonly byteQuota: number;
  /** Events spent: every call with exactly one argument spends one, refused or not. */
  readonly eventsUsed: number;
  /** Bytes spent: the UTF-8 bytes of the recorded messages. */
  readonly bytesUsed: number;
}

/**
 * Installs the `log` global in `vm`: `log(message)` records one checkpoint attributed to
 * `options.section` and returns nothing. The checks come in the chapter's order: exactly one
 * argument (`log expects exactly one argument`, spends nothing), the event quota (`lua log event
 * budget exceeded`; every one-argument call spends one event before the next checks), a string
 * (`log message must be a UTF-8 string`), valid UTF-8 (same message), at most 256 characters,
 * no newline or control characters, then the byte quota (`lua log cumulative byte budget
 * exceeded`; a refused message spends no bytes). Refusals are kind `lua` EngineErrors; quota
 * refusals are marked as such (errors area's quotaError: run error kind Quota when uncaught).
 */
export function installLog(vm: LuaVm, options: LogOptions): LogHandle {
  const events = options.quotas?.events ?? DEFAULT_LOG_EVENTS;
  if (!Number.isSafeInteger(events) || events < 0) {
    throw new RangeError(`the log event quota must be a whole number, got ${events}`);
  }
  const bytesQuota = logByteQuota(events);
  const { section, onCheckpoint } = options;
  const checkpoints: LogCheckpoint[] = [];
  let eventsUsed = 0;
  let bytesUsed = 0;
  const log: HostFunction = (call) => {
    if (call.argCount !== 1) throw argumentError(LOG_ARGUMENT_COUNT_MESSAGE);
    if (eventsUsed >= events) throw quotaError(LOG_EVENT_QUOTA_MESSAGE);
    eventsUsed++;
    if (call.type(1) !== "string") throw argumentError(LOG_NOT_UTF8_MESSAGE);
    const bytes = call.bytes(1) ?? new Uint8Array();
    const broken = logMessageRuleBroken(bytes);
    if (broken !== undefined) throw argumentError(broken);
    if (bytesUsed + bytes.length > bytesQuota) throw quotaError(LOG_BYTE_QUOTA_MESSAGE);
    bytesUsed += bytes.length;
    const checkpoint: LogCheckpoint = { section, message: decoder.decode(bytes) };
    checkpoints.push(checkpoint);
    onCheckpoint?.(checkpoint);
  };
  vm.setGlobal("log", log);
  return {
    checkpoints,
    eventQuota: events,
    byteQuota: bytesQuota,
    get eventsUsed() {
      return eventsUsed;
    },
    get bytesUsed() {
      return bytesUsed;
    },
  };
}

const decoder = new TextDecoder("utf-8");

import { suspendOn } from "../globals/arguments";
import {
  argumentError,
  EngineError,
  type HostCall,
  type HostFunction,
  type HostResult,
  type LuaRuntime,
  YIELD_ACROSS_C_MESSAGE,
} from "../lua";
import { checkConversation } from "../messages/conversation-check";
import { type MessageRecord, userRecord } from "../messages/message-record";
import { textTokens } from "../models/estimate";
import { runModelRound } from "../models/model-round";
import { EMPTY_INFER_REPLY_MESSAGE } from "../models/models-texts";
import type { ModelRole } from "../models/run-models";
import { runModelsOf } from "../models/run-models";
import { sectionRole } from "../models/section-model";
import { debugQuote } from "../tools/debug-quote";
import { keyText } from "../tools/tool-failures";
import type { Entry } from "../walk/entry";
import {
  compactorsReadOnlyMessage,
  DEFAULT_SUMMARY_INSTRUCTIONS,
  FAIL_ARGUMENTS_MESSAGE,
  historyTypeMessage,
  keepLastCountMessage,
  summarizeInstructionsMessage,
  summarizeKeepMessage,
  summarizeMalformedMessage,
  summarizeNoModelMessage,
  summarizeOptionsTypeMessage,
  summarizeRoleMessage,
  summarizeUnknownOptionMessage,
  summaryRecordText,
} from "./compact-texts";
import COMPACTORS_IMPL_LUA from "./compactors-impl.lua";
import { clearIndices, keepLastIndices, type SelectionRole, summaryCut } from "./record-selection";
import { summaryPrompt } from "./summary-prompt";

/** The chunk name of the built-in compactors (compactors-impl.lua). */
export const COMPACTORS_IMPL_CHUNK_NAME = "@runvil/compactors-impl.lua";

/** The default number of records a summarising compactor keeps. */
export const DEFAULT_SUMMARY_KEEP = 6;

const compiled = new WeakMap<LuaRuntime, Uint8Array>();

/** The built-in compactors' bytecode, compiled once per runtime. */
function compactorsBytecode(runtime: LuaRuntime): Uint8Array {
  let bytecode = compiled.get(runtime);
  if (bytecode === undefined) {
    const result = runtime.compile(COMPACTORS_IMPL_LUA, COMPACTORS_IMPL_CHUNK_NAME);
    if (!result.ok) throw new Error(`the compactors Lua does not compile: ${result.diagnostic}`);
    bytecode = result.bytecode;
    compiled.set(runtime, bytecode);
  }
  return bytecode;
}

/** A value as the refusals show it: a number as Lua writes it, anything else its type name. */
function valueText(call: HostCall, index: number): string {
  return call.type(index) === "number" ? (call.text(index) ?? "") : (call.text(index + 1) ?? "");
}

/** The refusals the compactors Lua raises through `C('fail', what, ...)`. */
function failureMessage(call: HostCall): string {
  const what = call.text(2);
  switch (what) {
    case "read_only":
      return compactorsReadOnlyMessage(keyText(call, 3));
    case "history_type":
      return historyTypeMessage(call.text(3) ?? "", call.text(4) ?? "");
    case "keep_last_count":
      return keepLastCountMessage(valueText(call, 3));
    case "summarize_type":
      return summarizeOptionsTypeMessage(call.text(3) ?? "");
    case "summarize_option":
      return summarizeUnknownOptionMessage(keyText(call, 3));
    case "summarize_keep":
      return summarizeKeepMessage(valueText(call, 3));
    case "fail_arguments":
      return FAIL_ARGUMENTS_MESSAGE;
    default:
      throw new Error(`unknown compactors refusal ${String(what)}`);
  }
}

/** The roles a Lua list of roles holds (`false` for a record with no role string). */
function rolesOf(call: HostCall, index: number): SelectionRole[] {
  const value = call.value(index);
  if (!Array.isArray(value)) return [];
  return value.map((role) => (typeof role === "string" ? role : null));
}

/** Kept indices (from 0) as the Lua side picks them (from 1). */
function fromOne(indices: readonly number[]): number[] {
  return indices.map((i) => i + 1);
}

/** compactors.fail: raise the exhaustion the compactor was handed, with its reason. */
function giveUp(call: HostCall): never {
  const reason = call.text(2);
  const message = call.type(3) === "string" ? call.text(3) : null;
  if (call.type(2) !== "string" || !["precheck", "provider", "explicit"].includes(reason ?? "")) {
    throw argumentError(FAIL_ARGUMENTS_MESSAGE);
  }
  if (message === null) throw argumentError(FAIL_ARGUMENTS_MESSAGE);
  throw new EngineError("context_exhausted", message, { reason: reason ?? "" });
}

/** The role a summarize option names: undefined for none; else a declared role, or refused. */
function optionRole(entry: Entry, call: HostCall, index: number): ModelRole | undefined {
  const type = call.type(index);
  if (type === "nil") return undefined;
  const label = call.text(index) ?? "";
  const role = type === "string" ? runModelsOf(entry.ctx).role(label) : undefined;
  if (role === undefined) {
    throw argumentError(summarizeRoleMessage(type === "string" ? debugQuote(label) : type));
  }
  return role;
}

/** The instructions a summarize option gives: the default for none; else a non-empty string. */
function optionInstructions(call: HostCall, index: number): string {
  const type = call.type(index);
  if (type === "nil") return DEFAULT_SUMMARY_INSTRUCTIONS;
  const text = type === "string" ? (call.text(index) ?? "") : "";
  if (text === "")
    throw argumentError(summarizeInstructionsMessage(type === "string" ? "an empty string" : type));
  return text;
}

/**
 * A summarising compaction (compactors.md `compactors.summarize`): the staged history checked
 * whole, the cut, then one model round (`via: "compact"`) on the role (the option's, else the
 * loop's, else the section's model), and the summary record. Gives nothing when there is
 * nothing older than the kept records, else the kept tail's first index (from 1) and the
 * summary record's text. An empty reply fails as `empty_model_reply`; any other failure of the
 * round is raised unchanged. Arguments: keep, role, instructions, the loop's role.
 */
function summarize(entry: Entry, call: HostCall): HostResult | Promise<HostResult> {
  const keep = call.type(2) === "nil" ? DEFAULT_SUMMARY_KEEP : Number(call.integer(2) ?? 1);
  const checked = checkConversation(entry.messages.takeStaged());
  if (!checked.ok) throw argumentError(summarizeMalformedMessage(checked.index, checked.problem));
  const records = checked.records;
  const cut = summaryCut(
    records.map((record) => record.role),
    keep,
  );
  if (cut.older.length === 0) return [];
  const loopRole =
    call.type(5) === "string" ? runModelsOf(entry.ctx).role(call.text(5) ?? "") : undefined;
  const role = optionRole(entry, call, 3) ?? loopRole ?? sectionRole(entry);
  if (role === undefined) throw argumentError(summarizeNoModelMessage());
  const instructions = optionInstructions(call, 4);
  if (!call.canSuspend) throw new Error(YIELD_ACROSS_C_MESSAGE);
  return suspendOn(summaryRound(entry, role, instructions, records, cut));
}

/** The summarising round itself, and the summary record's text. */
async function summaryRound(
  entry: Entry,
  role: ModelRole,
  instructions: string,
  records: readonly MessageRecord[],
  cut: ReturnType<typeof summaryCut>,
): Promise<HostResult> {
  const window = role.binding?.contextWindow ?? 0;
  const text = summaryPrompt(
    instructions,
    cut.older.flatMap((i) => {
      const record = records[i];
      return record === undefined ? [] : [{ index: i + 1, record }];
    }),
    Math.floor(window / 2),
    textTokens,
  );
  const { reply } = await runModelRound(entry, {
    role,
    via: "compact",
    records: [userRecord(text)],
    tools: [],
  });
  if (reply.text.trim() === "") {
    throw new EngineError("empty_model_reply", EMPTY_INFER_REPLY_MESSAGE, {
      finish_reason: reply.finishReason === "" ? "unknown" : reply.finishReason,
    });
  }
  return [cut.start + 1, summaryRecordText(reply.text)];
}

/** The host side of the built-in compactors for one entry: `C(op, ...)`. */
export function compactorsHost(entry: Entry): HostFunction {
  const texts = {};
  return (call) => {
    const op = call.text(1);
    switch (op) {
      case "code":
        return [compactorsBytecode(entry.ctx.runtime), texts];
      case "fail":
        throw argumentError(failureMessage(call));
      case "give_up":
        return giveUp(call);
      case "clear":
        return [fromOne(clearIndices(rolesOf(call, 2)))];
      case "keep_last":
        return [fromOne(keepLastIndices(rolesOf(call, 3), Number(call.integer(2) ?? 1)))];
      case "summarize_options":
        optionRole(entry, call, 2);
        optionInstructions(call, 3);
        return [];
      case "summarize":
        return summarize(entry, call);
      default:
        throw new Error(`unknown compactors operation ${String(op)}`);
    }
  };
}

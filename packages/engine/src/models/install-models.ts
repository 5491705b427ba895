import { argumentTypeName, nonEmptyTextArgument, suspendOn } from "../globals/arguments";
import {
  argumentError,
  type HostCall,
  type HostFunction,
  type HostResult,
  NEW_USERDATA_FIELD,
  YIELD_ACROSS_C_MESSAGE,
} from "../lua";
import { keyText } from "../tools/tool-failures";
import type { Entry } from "../walk/entry";
import { inferText } from "./infer";
import { modelsLuaBytecode } from "./models-lua";
import {
  DEFAULT_OUTSIDE_H1_MESSAGE,
  getTypeMessage,
  HANDLE_METATABLE_TEXT,
  type HandleMethod,
  handleArityMessage,
  handleColonMessage,
  handleFrozenMessage,
  handleText,
  INFER_ARITY_MESSAGE,
  labelTypeMessage,
  modelsReadOnlyMessage,
  noModelMessage,
  type SelectFunction,
  selectArityMessage,
  unknownRoleMessage,
} from "./models-texts";
import type { ModelRole } from "./run-models";
import { runModelsOf } from "./run-models";
import { sectionRole } from "./section-model";

/** The refusals the models Lua raises through `H('fail', what, ...)`. */
function failureMessage(call: HostCall): string {
  const what = call.text(2);
  switch (what) {
    case "read_only":
      return modelsReadOnlyMessage(keyText(call, 3));
    case "get_type":
      return getTypeMessage(call.text(3) ?? "");
    case "handle_colon":
      return handleColonMessage(call.text(3) as HandleMethod);
    case "handle_arity":
      return handleArityMessage(call.text(3) as HandleMethod);
    case "handle_frozen":
      return handleFrozenMessage(keyText(call, 3));
    default:
      throw new Error(`unknown models refusal ${String(what)}`);
  }
}

/**
 * The role label a selection call names, checked (models.md §6): exactly one argument (the
 * call's own arguments start at index 2), a string, a role the prompt declares.
 */
function selectedRole(entry: Entry, call: HostCall, fn: SelectFunction): string {
  if (call.argCount !== 2) throw argumentError(selectArityMessage(fn));
  if (fn === "models.default" && !entry.isH1) throw argumentError(DEFAULT_OUTSIDE_H1_MESSAGE);
  if (call.type(2) !== "string") throw argumentError(labelTypeMessage(argumentTypeName(call, 2)));
  const label = call.text(2) ?? "";
  const run = runModelsOf(entry.ctx);
  if (run.role(label) === undefined) throw argumentError(unknownRoleMessage(fn, label, run.labels));
  return label;
}

/** One infer round on `role` as a suspending host result: the reply text. */
function inferOn(
  entry: Entry,
  call: HostCall,
  role: ModelRole,
  prompt: string,
): Promise<HostResult> {
  if (!call.canSuspend) throw new Error(YIELD_ACROSS_C_MESSAGE);
  return suspendOn(inferText(entry, role, prompt).then((text): HostResult => [text]));
}

/**
 * The host side of the models Lua for one entry: `H(op, ...)`. lazy-globals.lua asks for it on the
 * first use of `models`; `H('code')` gives models-impl.lua's bytecode and texts.
 */
export function modelsHost(entry: Entry): HostFunction {
  const { ctx } = entry;
  const run = runModelsOf(ctx);
  const bytecode = modelsLuaBytecode(ctx.runtime);
  const texts = {
    handle_meta: HANDLE_METATABLE_TEXT,
    handle_prefix: handleText(""),
    new_userdata_field: NEW_USERDATA_FIELD,
  };
  return (call) => {
    const op = call.text(1);
    switch (op) {
      case "code":
        return [bytecode.impl, texts];
      case "fail":
        throw argumentError(failureMessage(call));
      case "use":
        entry.models.choice = selectedRole(entry, call, "models.use");
        return [];
      case "default":
        run.defaultRole = selectedRole(entry, call, "models.default");
        return [];
      case "role": {
        const role = run.role(call.text(2) ?? "");
        return role === undefined ? [false] : [true, role.binding?.model ?? null];
      }
      case "infer": {
        if (call.argCount !== 2) throw argumentError(INFER_ARITY_MESSAGE);
        const prompt = nonEmptyTextArgument(call, 2, "prompt");
        const role = sectionRole(entry);
        if (role === undefined) throw argumentError(noModelMessage("models.infer"));
        return inferOn(entry, call, role, prompt);
      }
      case "handle_infer": {
        if (call.argCount !== 3) throw argumentError(handleArityMessage("infer"));
        const prompt = nonEmptyTextArgument(call, 3, "prompt");
        const role = run.role(call.text(2) ?? "");
        if (role === undefined) throw new Error("a model handle names no declared role");
        return inferOn(entry, call, role, prompt);
      }
      default:
        throw new Error(`unknown models operation ${String(op)}`);
    }
  };
}

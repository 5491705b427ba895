import { argumentError, type LuaVm } from "../lua";
import { wrapUntrusted } from "../untrusted/envelope";
import { stringArgument } from "./arguments";

/** The refusal of `untrusted` called with another argument count. */
export const UNTRUSTED_ARITY_MESSAGE = "untrusted takes (text)";

/** Setup step 2: `untrusted(text)` returns `text` in the run's untrusted envelope. */
export function installUntrusted(vm: LuaVm, nonce: string): void {
  vm.setGlobal("untrusted", (call) => {
    if (call.argCount !== 1) throw argumentError(UNTRUSTED_ARITY_MESSAGE);
    return [wrapUntrusted(stringArgument(call, 1, "text"), nonce)];
  });
}

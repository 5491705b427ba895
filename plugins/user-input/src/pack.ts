import { definePack, INPUT_BROKER } from "@runvil/sdk";
import { askTool } from "./ask-tool";
import { USER_INPUT_PRELUDE } from "./prelude";

/**
 * runvil/user-input: lets a prompt ask the operator. Its prelude defines `input.ask()`, its one
 * tool is `user-input/ask`, and it needs the run's `runvil/input-broker` service.
 */
export const userInputPack = definePack({
  vendor: "runvil",
  name: "user-input",
  description: "Ask the operator and wait for their next message",
  services: [INPUT_BROKER],
  prelude: USER_INPUT_PRELUDE,
  tools: [askTool],
});

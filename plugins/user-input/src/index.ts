export {
  ASK_TOOL_DESCRIPTION,
  ASK_TOOL_ID,
  askTool,
  BROKER_FAILED_MESSAGE,
  NO_INPUT_BROKER_MESSAGE,
} from "./ask-tool";
export {
  LineInputBroker,
  type LineInputBrokerOptions,
  QUESTION_WITHDRAWN_MESSAGE,
  WINDOW_CLOSED_MESSAGE,
} from "./line-input-broker";
export { userInputPack } from "./pack";
export { userInputPlugin, userInputPlugin as default } from "./plugin";
export { USER_INPUT_PRELUDE } from "./prelude";

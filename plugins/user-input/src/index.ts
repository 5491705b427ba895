export { LineInputBroker, type LineInputBrokerOptions } from "./line-input-broker";
export { userInputPack } from "./pack";
export { userInputPlugin, userInputPlugin as default } from "./plugin";

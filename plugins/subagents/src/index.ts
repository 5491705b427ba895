export { subagentsPack } from "./pack";
export { subagentsPlugin, subagentsPlugin as default } from "./plugin";

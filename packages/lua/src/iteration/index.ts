export { installIteration } from "./install";

export { TEST_STORE_NO_GLOB, TestStore } from "./test-store";
export {
  TEST_ORIGIN,
  type TestToolContextOptions,
  testServices,
  testToolContext,
} from "./tool-context";

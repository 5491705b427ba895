export { CuttableProxy } from "./cuttable-proxy";
export {
  adminQuery,
  dropSchema,
  freshDatabase,
  freshName,
  serverUrl,
  skipReason,
  suiteName,
} from "./test-server";

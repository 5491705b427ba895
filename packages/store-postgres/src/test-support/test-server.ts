import { freshName } from "@runvil/pg-kit/testing";

export {
  adminQuery,
  CuttableProxy,
  dropSchema,
  serverUrl,
  skipReason,
  suiteName,
} from "@runvil/pg-kit/testing";

/** A fresh schema name for one test file or case. */
export function freshSchema(): string {
  return freshName("runvil_store_test");
}

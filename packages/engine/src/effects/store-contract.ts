/** The sdk's run-store contract, as the Engine uses it. */
export {
  isStoreError,
  type RunStore,
  type StoreErrorReason,
  type StoreFailure,
  type StoreText,
} from "@runvil/sdk";

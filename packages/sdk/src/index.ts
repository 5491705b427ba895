export {
  isStoreError,
  type RunStore,
  STORE_ERROR_REASONS,
  StoreError,
  type StoreErrorReason,
  type StoreFailure,
  type StoreText,
} from "./store";

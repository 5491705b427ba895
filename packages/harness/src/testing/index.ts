export {
  describeRunStoreContract,
  type RunStoreContractOptions,
  type RunStoreContractSetup,
  type RunStoreFactory,
} from "./run-store-contract";

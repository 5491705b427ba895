export {
  describeJournalContract,
  type JournalContractOptions,
  type JournalContractSetup,
  type JournalFactory,
} from "./journal-contract";

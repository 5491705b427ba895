import { describeRunStoreContract } from "../testing/run-store-contract";
import { MemoryStore } from "./memory-store";

describeRunStoreContract("MemoryStore", (setup) => new MemoryStore(setup));

import { describeRunStoreContract } from "../testing/run-store-contract";
import { MemoryStore } from "./memory-store";

describeRunStoreContract("MemoryStore", async (setup) => new MemoryStore(setup ?? {}));

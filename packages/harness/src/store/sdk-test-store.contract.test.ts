import { TestStore } from "@runvil/sdk/testing";
import { describeContractGroups } from "../testing/run-store-contract";

// The sdk's TestStore (for testing a Pack) claims the stores' reasons and messages for all it
// implements; it has no glob and no size limits, and says so (sdk README, "Testing a Pack").
describeContractGroups("the sdk's TestStore", (setup) => new TestStore(setup.files), {
  glob: false,
  limits: false,
});

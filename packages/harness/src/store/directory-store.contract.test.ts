import { join } from "node:path";
import { seedDirectory, tempDirectory } from "../test-support/temp-directory";
import { describeRunStoreContract } from "../testing/run-store-contract";
import { DirectoryStore } from "./directory-store";

describeRunStoreContract("DirectoryStore", (setup) => {
  const root = join(tempDirectory(), "store");
  if (setup.files !== undefined) seedDirectory(root, setup.files);
  return new DirectoryStore(root, { sync: false, limits: setup.limits ?? {} });
});

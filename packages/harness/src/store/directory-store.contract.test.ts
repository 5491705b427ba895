import { join } from "node:path";
import { describeRunStoreContract } from "../testing/run-store-contract";
import { seedDirectory, tempDirectory } from "../testing/temp-directory";
import { DirectoryStore } from "./directory-store";

describeRunStoreContract("DirectoryStore", async (setup) => {
  const root = join(tempDirectory(), "store");
  if (setup?.files !== undefined) seedDirectory(root, setup.files);
  return new DirectoryStore(root, { sync: false, limits: setup?.limits ?? {} });
});

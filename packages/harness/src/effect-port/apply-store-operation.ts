import type { StoreOperation, StoreOutput } from "@runvil/protocol";
import type { RunStore } from "@runvil/sdk";

/**
 * Performs one store operation on a RunStore: the step from `EffectPort.storeOp` to the sdk's
 * store contract that every Harness makes. Failures are the store's own (StoreError).
 */
export async function applyStoreOperation<O extends StoreOperation>(
  store: RunStore,
  operation: O,
): Promise<StoreOutput<O["op"]>> {
  return (await apply(store, operation)) as StoreOutput<O["op"]>;
}

async function apply(
  store: RunStore,
  operation: StoreOperation,
): Promise<StoreOutput<StoreOperation["op"]>> {
  switch (operation.op) {
    case "read":
      return store.read(operation.path);
    case "write":
      await store.write(operation.path, operation.contents);
      return undefined;
    case "append":
      await store.append(operation.path, operation.text);
      return undefined;
    case "edit":
      await store.edit(operation.path, operation.old, operation.new);
      return undefined;
    case "delete":
      await store.delete(operation.path);
      return undefined;
    case "exists":
      return store.exists(operation.path);
    case "list":
      return store.list(operation.prefix);
    case "glob":
      return store.glob(operation.pattern);
  }
}

import { StoreError } from "@runvil/sdk";

/** A StoreError's fields as a plain object (count and validUpTo only when set). */
export interface DescribedFailure {
  reason: string;
  path: string;
  message: string;
  count?: number;
  validUpTo?: number;
}

/** The StoreError `promise` rejects with; throws when it resolves or rejects with anything else. */
export async function storeFailure(promise: Promise<unknown>): Promise<DescribedFailure> {
  try {
    await promise;
  } catch (error) {
    if (!StoreError.isInstance(error)) throw error;
    const described: DescribedFailure = {
      reason: error.reason,
      path: error.path,
      message: error.message,
    };
    if ("count" in error) described.count = error.count;
    if ("validUpTo" in error) described.validUpTo = error.validUpTo;
    return described;
  }
  throw new Error("expected the operation to fail with a StoreError");
}

/** The error `promise` rejects with; throws when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the operation to fail");
}

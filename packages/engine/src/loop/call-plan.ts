import type { CallRoute } from "./advertised-tools";

/**
 * One step of a tool round (tools chapter, "Tool-call batches", "Calls that run alone"):
 * consecutive catalog calls started together as one batch, or a local or built-in call that
 * runs alone. Calls are named by their place in the reply (from 0).
 */
export type CallStep =
  | { readonly kind: "batch"; readonly calls: readonly number[] }
  | { readonly kind: "alone"; readonly call: number };

/**
 * Splits a round's calls into steps, keeping the model's order: a batch stops at the first
 * call that names a local tool or a task built-in; that call runs alone once the calls before
 * it landed, and the calls after it go out together as a new batch. How a call runs never
 * depends on how many calls share its round: a round of one catalog call is a batch of one.
 */
export function planCalls(routes: readonly CallRoute[]): CallStep[] {
  const steps: CallStep[] = [];
  let batch: number[] = [];
  for (const [index, route] of routes.entries()) {
    if (route.kind === "catalog") {
      batch.push(index);
      continue;
    }
    if (batch.length > 0) steps.push({ kind: "batch", calls: batch });
    batch = [];
    steps.push({ kind: "alone", call: index });
  }
  if (batch.length > 0) steps.push({ kind: "batch", calls: batch });
  return steps;
}

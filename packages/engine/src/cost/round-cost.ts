import type { ModelPrices, ModelUsage } from "@runvil/sdk";
import { Usd } from "./usd";

/** A model's prices per million tokens, as exact amounts. */
interface ExactPrices {
  readonly input: Usd;
  readonly output: Usd;
  readonly cachedInput: Usd;
}

const exact = new WeakMap<ModelPrices, ExactPrices>();

function exactPrices(prices: ModelPrices): ExactPrices {
  let found = exact.get(prices);
  if (found === undefined) {
    const input = Usd.of(prices.inputPerMillion);
    found = {
      input,
      output: Usd.of(prices.outputPerMillion),
      cachedInput:
        prices.cachedInputPerMillion === undefined ? input : Usd.of(prices.cachedInputPerMillion),
    };
    exact.set(prices, found);
  }
  return found;
}

/**
 * What one round cost (docs/design/cost.md), or undefined when its model has no prices: the
 * uncached input tokens at the input price, the cached ones (`cachedInputTokens`, at most
 * `inputTokens`) at the cached-input price (the input price when the model gives none), the
 * output tokens (reasoning included) at the output price, each per million tokens.
 */
export function roundCost(usage: ModelUsage, prices: ModelPrices | undefined): Usd | undefined {
  if (prices === undefined) return undefined;
  const price = exactPrices(prices);
  const cached = Math.min(usage.cachedInputTokens ?? 0, usage.inputTokens);
  return price.input
    .times(usage.inputTokens - cached)
    .plus(price.cachedInput.times(cached))
    .plus(price.output.times(usage.outputTokens))
    .perMillion();
}

/**
 * The most a round may cost before it is sent, or undefined when its model has no prices:
 * `inputTokens` (the request's estimate, priced as uncached input) and `outputTokens` (the most
 * its reply can hold) at the model's prices.
 */
export function estimatedCost(
  inputTokens: number,
  outputTokens: number,
  prices: ModelPrices | undefined,
): Usd | undefined {
  return roundCost({ inputTokens, outputTokens }, prices);
}

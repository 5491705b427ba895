import type { RunUsage } from "@runvil/protocol";

/** The usage of a run that made no model round. */
export const NO_USAGE: RunUsage = {
  total: {
    rounds: 0,
    inputTokens: 0,
    outputTokens: 0,
    cachedInputTokens: 0,
    reasoningTokens: 0,
    costUsd: "0",
    unpricedRounds: 0,
  },
  byModel: {},
  bySection: {},
  byTask: {},
  sections: [],
};

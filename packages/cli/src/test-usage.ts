/**
 * The `usage` of a `runvil run --json` report of a run that made no model round, spelled out
 * as docs/design/cli.md "`runvil run --json`" documents it (the tests compare against this
 * literal, not the command's own constant).
 */
export const NO_USAGE_JSON = {
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
};

/**
 * The limits of one budget scope (docs/design/budgets.md): the most tokens (input plus output)
 * and the most US dollars its model rounds may spend. A limit left out does not apply.
 */
export interface BudgetLimits {
  /** The most tokens, a whole number of at least 0. */
  readonly maxTokens?: number;
  /** The most US dollars, a number of at least 0 (read as the decimal it is written as). */
  readonly maxCostUsd?: number;
}

/**
 * A run's budget: limits on the whole run and on each section (every entry of one section,
 * summed). The prompt's frontmatter and the Host (`runvil.config.json`) can each set one; the
 * Engine applies both, so the tighter limit wins.
 */
export interface RunBudget {
  readonly run?: BudgetLimits;
  readonly section?: BudgetLimits;
}

/** A budget scope: the whole run, or one section (all its entries). */
export type BudgetScope = "run" | "section";

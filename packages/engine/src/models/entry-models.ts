/**
 * One section entry's model state (docs/design/models.md §6, §9): the entry's own latest
 * `models.use` choice, the prompt-wide default as it stood when the entry began, and whether the
 * entry's first tool call has come (it fixes `sys.model`).
 */
export class EntryModels {
  /** The latest `models.use` label of this entry, or null before one. */
  choice: string | null = null;
  /** The prompt-wide default when the entry began (the H1 entry follows the live default). */
  readonly defaultAtStart: string | null;
  /** Whether the entry's first bound or local tool call has been dispatched. */
  toolCalled = false;

  constructor(defaultAtStart: string | null) {
    this.defaultAtStart = defaultAtStart;
  }
}

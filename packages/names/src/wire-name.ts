const WIRE_SEPARATORS = /[/.]/g;
const OFFERABLE_WIRE_NAME = /^[A-Za-z0-9_.-]+$/;

/**
 * The wire name the model sees for a tool id: each `/` and each `.` becomes `_`, and `-`
 * stays, so `web/fetch` becomes `web_fetch`.
 *
 * A pure text transform: it does not validate `toolId`. It is not injective (`a.b/c`,
 * `a/b.c`, `a/b/c` and `a_b/c` all give `a_b_c`); detecting such collisions is the Host's job.
 */
export function toWireName(toolId: string): string {
  return toolId.replace(WIRE_SEPARATORS, "_");
}

/**
 * True when a name may be offered to a model as a tool name: non-empty and made only of
 * `[A-Za-z0-9_.-]`. Every wire name of a valid tool id and every valid alias passes.
 */
export function isOfferableWireName(name: string): boolean {
  return OFFERABLE_WIRE_NAME.test(name);
}

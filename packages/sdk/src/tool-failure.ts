import { hasBrand } from "./brand";

const BRAND: unique symbol = Symbol.for("runvil.ToolFailure");

/**
 * A tool's failure, carrying a model-safe message: a short text that may be shown to a model
 * and to the prompt's Lua (`tool call failure: {message}`), with any deeper cause kept out of
 * it. Throw it from a tool's `run`; pass the hidden cause as `cause` (it is logged, never shown).
 *
 * **The message must carry no untrusted bytes.** The model reads it inside the run's untrusted
 * envelope, but the prompt's Lua reads it outside (`tostring(err)`), and a prompt may pass it on
 * anywhere. So write it yourself, in your own words: never quote text that a server, a page, a
 * file, a model or another program wrote — a `Location` or other header, a reason phrase, an
 * error page or response body, a library's exception message (which may hold any of those).
 * What it may name: the caller's own arguments (such as the url it gave), numbers (a status, a
 * limit) and your own fixed words. Put the untrusted detail in `cause`. If a message truly needs
 * a piece of untrusted text, escape it and bound its length (and prefer not to). The official
 * tools follow this rule (docs/design/web-pack.md, "Failure messages").
 *
 * A tool that throws anything else fails too, but its message is replaced by a generic one
 * (`{wire name}: the tool failed`), because a stray exception's text is not known to be safe.
 */
export class ToolFailure extends Error {
  /** The brand that tells a ToolFailure apart across package copies (see {@link isInstance}). */
  declare readonly [BRAND]: true;

  static {
    // On the prototype, not enumerable: no own property for spreads, JSON or deep equality.
    Object.defineProperty(ToolFailure.prototype, BRAND, { value: true });
  }

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ToolFailure";
  }

  /** Whether `value` is a ToolFailure, from this copy of the SDK or another one. */
  static isInstance(value: unknown): value is ToolFailure {
    return hasBrand(value, BRAND);
  }
}

/**
 * Errors that cross package copies (a plugin bundled with its own copy of the SDK, the CLI's
 * worker bundle) are recognised by a brand rather than by `instanceof`: a property keyed by a
 * registered symbol, `Symbol.for("runvil.{ClassName}")` (the same symbol in every copy and
 * every realm), whose value is `true`, set on the class's prototype (so subclasses inherit it
 * and no instance gets an own property). Each branded class has a static `isInstance(value)`
 * that checks its brand, as the AI SDK's `AISDKError.isInstance` does.
 */

/** Whether `value` is an object carrying `brand` set to `true` (own or inherited). */
export function hasBrand(value: unknown, brand: symbol): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { readonly [key: symbol]: unknown })[brand] === true
  );
}

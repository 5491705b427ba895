import { checkPackId, parseName } from "@runvil/names";
import type { PackDefinition } from "@runvil/sdk";

/** The reason for a vendor of more than one segment. */
export const REASON_VENDOR_SEGMENTS = "a vendor is one segment, such as `acme`, with no '/'";

/** The problem with a Pack's vendor, or undefined when it is one valid segment. */
export function vendorProblem(vendor: unknown): string | undefined {
  if (typeof vendor !== "string") return `Pack vendor must be a string, got ${typeName(vendor)}`;
  const parsed = parseName(vendor);
  const reason = !parsed.ok
    ? parsed.reason
    : parsed.value.length !== 1
      ? REASON_VENDOR_SEGMENTS
      : undefined;
  return reason === undefined
    ? undefined
    : `Pack vendor ${JSON.stringify(vendor)} is invalid: ${reason}`;
}

/** The problem with a Pack's name, or undefined when it is a valid Pack id. */
export function nameProblem(name: unknown): string | undefined {
  if (typeof name !== "string") return `Pack name must be a string, got ${typeName(name)}`;
  const checked = checkPackId(name);
  return checked.ok ? undefined : `Pack name ${JSON.stringify(name)} is invalid: ${checked.reason}`;
}

/**
 * The problem with the rest of a Pack's shape (its vendor and name are valid), or undefined:
 * `description` a string, `tools` an array, `services` an array of non-empty strings,
 * `prelude` a string, `start` and `close` functions.
 */
export function shapeProblem(pack: PackDefinition): string | undefined {
  if (typeof pack.description !== "string") {
    return `description must be a string, got ${typeName(pack.description)}`;
  }
  if (!Array.isArray(pack.tools)) return `tools must be an array, got ${typeName(pack.tools)}`;
  const { services } = pack;
  if (
    services !== undefined &&
    (!Array.isArray(services) || !services.every((id) => typeof id === "string" && id !== ""))
  ) {
    return "services must be an array of service ids (non-empty strings)";
  }
  if (pack.prelude !== undefined && typeof pack.prelude !== "string") {
    return `prelude must be a string, got ${typeName(pack.prelude)}`;
  }
  if (pack.start !== undefined && typeof pack.start !== "function") {
    return `start must be a function, got ${typeName(pack.start)}`;
  }
  if (pack.close !== undefined && typeof pack.close !== "function") {
    return `close must be a function, got ${typeName(pack.close)}`;
  }
  return undefined;
}

/** A value's type for a message: `null`, `array`, or its typeof. */
export function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/**
 * JSON text of plain data, like `JSON.stringify` without indentation, except that a `bigint`
 * is written as a JSON number with all its digits (so Lua integers beyond 2^53 stay exact).
 * Object members whose value is `undefined` are left out; in arrays `undefined` becomes null.
 */
export function losslessJson(value: unknown): string {
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) {
    return `[${value.map((item) => (item === undefined ? "null" : losslessJson(item))).join(",")}]`;
  }
  if (value !== null && typeof value === "object") {
    const members: string[] = [];
    for (const [key, item] of Object.entries(value)) {
      if (item !== undefined) members.push(`${JSON.stringify(key)}:${losslessJson(item)}`);
    }
    return `{${members.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

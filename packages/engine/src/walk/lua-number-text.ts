/**
 * A number as Lua's `tostring` writes it, as far as a JavaScript number can tell: a safe
 * integer (and not -0) as its digits (a Lua integer), anything else as Lua writes a float
 * (`%.14g`, with `.0` added when the text looks like an integer; `inf`, `-inf`, `nan`, `-nan`).
 * A bigint is a Lua integer outside the safe range: its digits.
 */
export function luaNumberText(value: number | bigint): string {
  if (typeof value === "bigint") return value.toString();
  if (Number.isSafeInteger(value) && !Object.is(value, -0)) return String(value);
  return luaFloatText(value);
}

/** A float as Lua 5.4 writes it: `%.14g`, plus `.0` when the result looks like an integer. */
export function luaFloatText(value: number): string {
  if (Number.isNaN(value)) return "nan";
  if (value === Number.POSITIVE_INFINITY) return "inf";
  if (value === Number.NEGATIVE_INFINITY) return "-inf";
  const text = formatG14(value);
  return /^-?\d+$/.test(text) ? `${text}.0` : text;
}

/** C's `%.14g`. */
function formatG14(value: number): string {
  if (value === 0) return Object.is(value, -0) ? "-0" : "0";
  const precision = 14;
  const exponent = Math.floor(Math.log10(Math.abs(Number(value.toPrecision(precision)))));
  if (exponent < -4 || exponent >= precision) {
    const [mantissa = "", exp = "0"] = value.toExponential(precision - 1).split("e");
    const digits = stripZeros(mantissa);
    const expNumber = Number(exp);
    const sign = expNumber < 0 ? "-" : "+";
    return `${digits}e${sign}${String(Math.abs(expNumber)).padStart(2, "0")}`;
  }
  return stripZeros(value.toFixed(Math.max(0, precision - 1 - exponent)));
}

function stripZeros(text: string): string {
  return text.includes(".") ? text.replace(/\.?0+$/, "") : text;
}

/**
 * An exact amount of US dollars (docs/design/cost.md): a whole number of units at a decimal
 * scale (`units × 10^-scale`), so sums and comparisons never round. Prices and budget limits
 * enter as the decimal a JavaScript number is written as (`0.3` is three tenths, not the
 * binary double nearest to it); amounts leave as decimal text with no exponent and no
 * trailing zeros (`"0.004515"`, `"12"`, `"0"`).
 */
export class Usd {
  /** Nothing. */
  static readonly ZERO = new Usd(0n, 0);

  private constructor(
    /** The amount in units of 10^-scale dollars. */
    readonly units: bigint,
    /** The number of decimal places of `units`. */
    readonly scale: number,
  ) {}

  /**
   * The decimal that `value` is written as (`String(value)`: the shortest text that reads back
   * as the same number), exactly. Throws a RangeError for a value that is not a finite number
   * of at least 0.
   */
  static of(value: number): Usd {
    if (!Number.isFinite(value) || value < 0) {
      throw new RangeError(`a dollar amount must be a finite number of at least 0, got ${value}`);
    }
    return Usd.parse(String(value));
  }

  /** A decimal text such as `12`, `0.004515` or `1.5e-7`; throws a RangeError for any other text. */
  static parse(text: string): Usd {
    const match = /^(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
    if (match === null) throw new RangeError(`not a decimal amount: ${JSON.stringify(text)}`);
    const whole = match[1] ?? "0";
    const fraction = match[2] ?? "";
    const exponent = Number(match[3] ?? "0");
    const scale = fraction.length - exponent;
    const units = BigInt(whole + fraction);
    return scale >= 0 ? Usd.normal(units, scale) : Usd.normal(units * 10n ** BigInt(-scale), 0);
  }

  /** This amount times a whole number of at least 0 (a token count). */
  times(count: number): Usd {
    if (!Number.isSafeInteger(count) || count < 0) {
      throw new RangeError(`a count must be a whole number of at least 0, got ${count}`);
    }
    return Usd.normal(this.units * BigInt(count), this.scale);
  }

  /** This amount divided by one million (a price per million tokens → the price of one). */
  perMillion(): Usd {
    return Usd.normal(this.units, this.scale + 6);
  }

  /** The sum. */
  plus(other: Usd): Usd {
    const scale = Math.max(this.scale, other.scale);
    return Usd.normal(widen(this, scale) + widen(other, scale), scale);
  }

  /** The difference `this − other`, or zero when `other` is larger. */
  minus(other: Usd): Usd {
    const scale = Math.max(this.scale, other.scale);
    const difference = widen(this, scale) - widen(other, scale);
    return difference <= 0n ? Usd.ZERO : Usd.normal(difference, scale);
  }

  /** -1, 0 or 1 as this amount is less than, equal to or greater than `other`. */
  compare(other: Usd): -1 | 0 | 1 {
    const scale = Math.max(this.scale, other.scale);
    const a = widen(this, scale);
    const b = widen(other, scale);
    return a < b ? -1 : a > b ? 1 : 0;
  }

  /** The amount with its trailing zero places dropped, so equal amounts print alike. */
  private static normal(units: bigint, scale: number): Usd {
    let u = units;
    let s = scale;
    while (s > 0 && u % 10n === 0n) {
      u /= 10n;
      s -= 1;
    }
    return new Usd(u, s);
  }

  /** The decimal text: no exponent, no trailing zeros, `"0"` for nothing. */
  toString(): string {
    if (this.scale === 0) return this.units.toString();
    const digits = this.units.toString().padStart(this.scale + 1, "0");
    const point = digits.length - this.scale;
    return `${digits.slice(0, point)}.${digits.slice(point)}`;
  }
}

/** `amount`'s units at a scale at least its own. */
function widen(amount: Usd, scale: number): bigint {
  return amount.units * 10n ** BigInt(scale - amount.scale);
}

/**
 * One glob pattern segment other than `**`, matched against one path segment without
 * backtracking (docs/design/store.md, "Glob patterns"). Characters are Unicode scalar values.
 *
 * The segment is split at its stars into runs of single-character matchers: the first run must
 * match at the start of the name, the last at its end, and each run between two stars at its
 * leftmost place after the run before. Leftmost is always right, since a star takes whatever
 * lies between two runs, so no choice is ever taken back: a run of literal characters is found
 * with a prefix-function (KMP) scan, in time linear in the name and the run; a run holding `?` or
 * a class is tried at each place, at most name × run steps. Never exponential, whatever the
 * stars (a backtracking regular expression takes exponential time on `*a*a*a...*b`).
 */

/** One character of a run: a literal, `?`, or a class. */
export type CharMatcher =
  | { readonly kind: "literal"; readonly codePoint: number }
  | { readonly kind: "any" }
  | {
      readonly kind: "class";
      readonly negated: boolean;
      /** Inclusive code point ranges; a single member is a range of one. */
      readonly ranges: readonly (readonly [number, number])[];
    };

/** A run of character matchers between stars. */
interface Run {
  readonly chars: readonly CharMatcher[];
  /** The prefix function of a run of literals (undefined when the run holds `?` or a class). */
  readonly failure: Int32Array | undefined;
}

/** A compiled wildcard segment. */
export interface SegmentPattern {
  /** Whether the name (one path segment) matches. */
  matches(name: string): boolean;
}

function accepts(matcher: CharMatcher, codePoint: number): boolean {
  if (matcher.kind === "literal") return matcher.codePoint === codePoint;
  if (matcher.kind === "any") return true;
  let inside = false;
  for (const [low, high] of matcher.ranges) {
    if (codePoint >= low && codePoint <= high) {
      inside = true;
      break;
    }
  }
  return inside !== matcher.negated;
}

/** The KMP prefix function of a run of literals; undefined when the run has another matcher. */
function prefixFunction(chars: readonly CharMatcher[]): Int32Array | undefined {
  const codes: number[] = [];
  for (const matcher of chars) {
    if (matcher.kind !== "literal") return undefined;
    codes.push(matcher.codePoint);
  }
  const failure = new Int32Array(codes.length);
  let k = 0;
  for (let i = 1; i < codes.length; i++) {
    while (k > 0 && codes[i] !== codes[k]) k = failure[k - 1] ?? 0;
    if (codes[i] === codes[k]) k += 1;
    failure[i] = k;
  }
  return failure;
}

function run(chars: readonly CharMatcher[]): Run {
  return { chars, failure: prefixFunction(chars) };
}

/** Whether `chars` match `name` exactly at `start`. */
function matchesAt(chars: readonly CharMatcher[], name: readonly number[], start: number): boolean {
  for (let i = 0; i < chars.length; i++) {
    const matcher = chars[i];
    const codePoint = name[start + i];
    if (matcher === undefined || codePoint === undefined || !accepts(matcher, codePoint)) {
      return false;
    }
  }
  return true;
}

/** The leftmost place in `name[from, to)` where `pattern` matches whole, or -1. */
function leftmost(pattern: Run, name: readonly number[], from: number, to: number): number {
  const length = pattern.chars.length;
  if (length === 0) return from;
  const { failure } = pattern;
  if (failure === undefined) {
    for (let start = from; start + length <= to; start++) {
      if (matchesAt(pattern.chars, name, start)) return start;
    }
    return -1;
  }
  let matched = 0;
  for (let i = from; i < to; i++) {
    const codePoint = name[i];
    while (matched > 0 && !accepts(pattern.chars[matched] as CharMatcher, codePoint ?? -1)) {
      matched = failure[matched - 1] ?? 0;
    }
    if (accepts(pattern.chars[matched] as CharMatcher, codePoint ?? -1)) matched += 1;
    if (matched === length) return i - length + 1;
  }
  return -1;
}

/**
 * Compiles a segment given as its runs: `runs[0]` before the first star, `runs[n]` after the
 * last; one run means no star at all.
 */
export function segmentPattern(runs: readonly (readonly CharMatcher[])[]): SegmentPattern {
  const compiled = runs.map(run);
  const first = compiled[0] ?? run([]);
  if (compiled.length === 1) {
    return {
      matches(name) {
        const codes = codePoints(name);
        return codes.length === first.chars.length && matchesAt(first.chars, codes, 0);
      },
    };
  }
  const last = compiled[compiled.length - 1] ?? run([]);
  const middle = compiled.slice(1, -1);
  const fixed = compiled.reduce((sum, part) => sum + part.chars.length, 0);
  return {
    matches(name) {
      const codes = codePoints(name);
      if (codes.length < fixed) return false;
      const end = codes.length - last.chars.length;
      if (!matchesAt(first.chars, codes, 0) || !matchesAt(last.chars, codes, end)) return false;
      let from = first.chars.length;
      for (const part of middle) {
        const at = leftmost(part, codes, from, end);
        if (at === -1) return false;
        from = at + part.chars.length;
      }
      return true;
    },
  };
}

function codePoints(name: string): number[] {
  const codes: number[] = [];
  for (const character of name) codes.push(character.codePointAt(0) ?? 0);
  return codes;
}

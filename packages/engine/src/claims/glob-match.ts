/**
 * Whether a store glob pattern matches a path, by the store's pattern syntax
 * (docs/design/store.md, "Glob patterns"): `*`, `?`, `[…]` classes (`!` or `^` negates, `]`
 * first is literal), `**` as a whole segment, `\c` literal; matched segment by segment. The
 * claim rule needs it for a change against an earlier glob and a glob against earlier changes
 * (docs/design/determinism.md). Both loops are dynamic programming, never backtracking.
 */

type Token =
  | { readonly kind: "char"; readonly char: string }
  | { readonly kind: "one" }
  | { readonly kind: "star" }
  | {
      readonly kind: "class";
      readonly negated: boolean;
      readonly ranges: readonly (readonly [string, string])[];
    };

type Segment = { readonly kind: "globstar" } | { readonly kind: "tokens"; tokens: Token[] };

/** A compiled pattern: a function from a path to whether it matches. */
export type GlobMatcher = (path: string) => boolean;

/** Compiles `pattern` (a pattern that breaks the grammar matches what its literal reading does). */
export function compileGlob(pattern: string): GlobMatcher {
  const segments = pattern.split("/").map(parseSegment);
  return (path) => matchSegments(segments, path.split("/"));
}

function parseSegment(text: string): Segment {
  if (text === "**") return { kind: "globstar" };
  const chars = Array.from(text);
  const tokens: Token[] = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] as string;
    if (c === "\\" && i + 1 < chars.length) {
      tokens.push({ kind: "char", char: chars[++i] as string });
    } else if (c === "*") {
      if (tokens.at(-1)?.kind !== "star") tokens.push({ kind: "star" });
    } else if (c === "?") {
      tokens.push({ kind: "one" });
    } else if (c === "[") {
      const parsed = parseClass(chars, i + 1);
      if (parsed === undefined) tokens.push({ kind: "char", char: c });
      else {
        tokens.push(parsed.token);
        i = parsed.end;
      }
    } else {
      tokens.push({ kind: "char", char: c });
    }
  }
  return { kind: "tokens", tokens };
}

/** A class starting after `[` at `start`; undefined when it never closes. */
function parseClass(
  chars: readonly string[],
  start: number,
): { token: Token; end: number } | undefined {
  let i = start;
  let negated = false;
  if (chars[i] === "!" || chars[i] === "^") {
    negated = true;
    i++;
  }
  const ranges: [string, string][] = [];
  let first = true;
  for (; i < chars.length; i++) {
    let c = chars[i] as string;
    if (c === "]" && !first) return { token: { kind: "class", negated, ranges }, end: i };
    first = false;
    if (c === "\\" && i + 1 < chars.length) c = chars[++i] as string;
    if (chars[i + 1] === "-" && i + 2 < chars.length && chars[i + 2] !== "]") {
      let to = chars[i + 2] as string;
      i += 2;
      if (to === "\\" && i + 1 < chars.length) to = chars[++i] as string;
      ranges.push([c, to]);
    } else {
      ranges.push([c, c]);
    }
  }
  return undefined;
}

function tokenMatches(token: Token, c: string): boolean {
  switch (token.kind) {
    case "char":
      return token.char === c;
    case "one":
      return true;
    case "star":
      return true;
    case "class": {
      const point = c.codePointAt(0) as number;
      const inside = token.ranges.some(
        ([from, to]) =>
          point >= (from.codePointAt(0) as number) && point <= (to.codePointAt(0) as number),
      );
      return inside !== token.negated;
    }
  }
}

/** One segment against one name: a star takes any run, every other token one character. */
function matchName(tokens: readonly Token[], name: string): boolean {
  const chars = Array.from(name);
  // reach[j]: the tokens so far can match chars[0..j)
  let reach = new Array<boolean>(chars.length + 1).fill(false);
  reach[0] = true;
  for (const token of tokens) {
    const next = new Array<boolean>(chars.length + 1).fill(false);
    if (token.kind === "star") {
      let on = false;
      for (let j = 0; j <= chars.length; j++) {
        on = on || (reach[j] as boolean);
        next[j] = on;
      }
    } else {
      for (let j = 0; j < chars.length; j++) {
        if (reach[j] && tokenMatches(token, chars[j] as string)) next[j + 1] = true;
      }
    }
    reach = next;
  }
  return reach[chars.length] as boolean;
}

function matchSegments(segments: readonly Segment[], names: readonly string[]): boolean {
  const last = segments.length - 1;
  // reach[j]: the segments so far can match names[0..j)
  let reach = new Array<boolean>(names.length + 1).fill(false);
  reach[0] = true;
  segments.forEach((segment, i) => {
    const next = new Array<boolean>(names.length + 1).fill(false);
    if (segment.kind === "globstar") {
      // zero or more whole segments; at the end of the pattern one or more
      const least = i === last ? 1 : 0;
      for (let j = 0; j <= names.length; j++) {
        if (!reach[j]) continue;
        for (let k = j + least; k <= names.length; k++) next[k] = true;
      }
    } else {
      for (let j = 0; j < names.length; j++) {
        if (reach[j] && matchName(segment.tokens, names[j] as string)) next[j + 1] = true;
      }
    }
    reach = next;
  });
  return reach[names.length] as boolean;
}

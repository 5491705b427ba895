import type { StoreText } from "@runvil/sdk";
import { invalidPattern } from "./failures";
import { checkPatternText, PATTERN_DETAILS } from "./store-path";

/** One compiled pattern segment. */
type GlobSegment =
  | { readonly kind: "globstar" }
  | { readonly kind: "literal"; readonly text: string }
  | { readonly kind: "wildcard"; readonly regex: RegExp };

/** A compiled glob pattern (docs/design/store.md, "Glob patterns"). */
export interface GlobMatcher {
  /** The pattern text. */
  readonly pattern: string;
  /**
   * The leading literal segments before the last segment: every match lies
   * in this directory, so a backend can start its walk there.
   */
  readonly literalPrefix: readonly string[];
  /** The deepest match in segments, or undefined when `**` makes it unbounded. */
  readonly maxSegments: number | undefined;
  /** Whether the path with these segments matches. */
  matches(segments: readonly string[]): boolean;
}

/** A regular expression source matching exactly the code point `character`. */
function literalSource(character: string): string {
  if (/^[A-Za-z0-9]$/.test(character)) return character;
  return `\\u{${(character.codePointAt(0) ?? 0).toString(16)}}`;
}

/** A failure detail raised while compiling one segment. */
class PatternDetail {
  constructor(readonly detail: string) {}
}

/**
 * Compiles the class starting after `[` at `characters[start]`; returns the
 * regular expression source and the index after the closing `]`.
 */
function compileClass(characters: readonly string[], start: number): [string, number] {
  let i = start;
  let negated = false;
  if (characters[i] === "!" || characters[i] === "^") {
    negated = true;
    i += 1;
  }
  const members: string[] = [];
  let first = true;
  while (i < characters.length) {
    let character = characters[i] ?? "";
    if (character === "]" && !first) {
      const body = members.join("");
      return [negated ? `[^${body}]` : `[${body}]`, i + 1];
    }
    first = false;
    if (character === "\\") {
      i += 1;
      if (i >= characters.length) throw new PatternDetail(PATTERN_DETAILS.unfinishedEscape);
      character = characters[i] ?? "";
    }
    const dash = characters[i + 1];
    const end = characters[i + 2];
    if (dash === "-" && end !== undefined && end !== "]") {
      let high = end;
      let next = i + 3;
      if (high === "\\") {
        if (i + 3 >= characters.length) throw new PatternDetail(PATTERN_DETAILS.unfinishedEscape);
        high = characters[i + 3] ?? "";
        next = i + 4;
      }
      if ((character.codePointAt(0) ?? 0) > (high.codePointAt(0) ?? 0)) {
        throw new PatternDetail(`reversed range ${character}-${high}`);
      }
      members.push(`${literalSource(character)}-${literalSource(high)}`);
      i = next;
      continue;
    }
    members.push(literalSource(character));
    i += 1;
  }
  throw new PatternDetail(PATTERN_DETAILS.unclosedClass);
}

/** Compiles one segment other than `**`. */
function compileSegment(segment: string): GlobSegment {
  const characters = Array.from(segment);
  let source = "";
  let literal = "";
  let wild = false;
  let i = 0;
  while (i < characters.length) {
    const character = characters[i] ?? "";
    if (character === "\\") {
      const escaped = characters[i + 1];
      if (escaped === undefined) throw new PatternDetail(PATTERN_DETAILS.unfinishedEscape);
      source += literalSource(escaped);
      literal += escaped;
      i += 2;
    } else if (character === "*") {
      if (characters[i + 1] === "*") throw new PatternDetail(PATTERN_DETAILS.globstarInSegment);
      source += "[^/]*";
      wild = true;
      i += 1;
    } else if (character === "?") {
      source += "[^/]";
      wild = true;
      i += 1;
    } else if (character === "[") {
      const [classSource, next] = compileClass(characters, i + 1);
      source += classSource;
      wild = true;
      i = next;
    } else {
      source += literalSource(character);
      literal += character;
      i += 1;
    }
  }
  if (!wild) return { kind: "literal", text: literal };
  return { kind: "wildcard", regex: new RegExp(`^${source}$`, "u") };
}

/** Whether `segment` matches the compiled pattern segment (not `**`). */
function segmentMatches(pattern: GlobSegment, segment: string): boolean {
  if (pattern.kind === "literal") return pattern.text === segment;
  if (pattern.kind === "wildcard") return pattern.regex.test(segment);
  return true;
}

/** Whether `path` (from index j) matches `pattern` (from index i); memoized for `**`. */
function matchFrom(
  pattern: readonly GlobSegment[],
  path: readonly string[],
  i: number,
  j: number,
  memo: Map<number, boolean>,
): boolean {
  const key = i * (path.length + 1) + j;
  const known = memo.get(key);
  if (known !== undefined) return known;
  let result: boolean;
  const segment = pattern[i];
  if (segment === undefined) result = j === path.length;
  else if (segment.kind === "globstar" && i === pattern.length - 1) {
    // A final `**` is everything below: one or more segments.
    result = j < path.length;
  } else if (segment.kind === "globstar") {
    result = false;
    for (let k = j; k <= path.length && !result; k++) {
      result = matchFrom(pattern, path, i + 1, k, memo);
    }
  } else {
    const name = path[j];
    result =
      name !== undefined &&
      segmentMatches(segment, name) &&
      matchFrom(pattern, path, i + 1, j + 1, memo);
  }
  memo.set(key, result);
  return result;
}

/**
 * Compiles a glob pattern: `*` and `?` inside a segment, `[...]` classes
 * (`!` or `^` negates), `**` as a whole segment for zero or more segments
 * (one or more when it ends the pattern: everything below), `\` escaping the
 * next character. Throws an `invalid_pattern` StoreError for a pattern
 * outside the grammar.
 */
export function compileGlob(input: StoreText): GlobMatcher {
  const text = checkPatternText(input);
  if (!text.ok) throw invalidPattern(text.pattern, text.detail);
  const compiled: GlobSegment[] = [];
  try {
    for (const segment of text.segments) {
      if (segment === "**") {
        const last = compiled[compiled.length - 1];
        if (last?.kind !== "globstar") compiled.push({ kind: "globstar" });
      } else {
        compiled.push(compileSegment(segment));
      }
    }
  } catch (error) {
    if (error instanceof PatternDetail) throw invalidPattern(text.pattern, error.detail);
    throw error;
  }
  const literalPrefix: string[] = [];
  for (const segment of compiled.slice(0, -1)) {
    if (segment.kind !== "literal") break;
    literalPrefix.push(segment.text);
  }
  const unbounded = compiled.some((segment) => segment.kind === "globstar");
  return {
    pattern: text.pattern,
    literalPrefix,
    maxSegments: unbounded ? undefined : compiled.length,
    matches: (segments) => matchFrom(compiled, segments, 0, 0, new Map()),
  };
}

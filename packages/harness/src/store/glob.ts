import type { StoreText } from "@runvil/sdk";
import { invalidPattern } from "./failures";
import { type CharMatcher, type SegmentPattern, segmentPattern } from "./segment-pattern";
import { checkPatternText, PATTERN_DETAILS } from "./store-path";

/** One compiled pattern segment. */
type GlobSegment =
  | { readonly kind: "globstar" }
  | { readonly kind: "literal"; readonly text: string }
  | { readonly kind: "wildcard"; readonly pattern: SegmentPattern };

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

/** A failure detail raised while compiling one segment. */
class PatternDetail {
  constructor(readonly detail: string) {}
}

function codePointOf(character: string): number {
  return character.codePointAt(0) ?? 0;
}

/**
 * Compiles the class starting after `[` at `characters[start]`; returns the
 * class matcher and the index after the closing `]`.
 */
function compileClass(characters: readonly string[], start: number): [CharMatcher, number] {
  let i = start;
  let negated = false;
  if (characters[i] === "!" || characters[i] === "^") {
    negated = true;
    i += 1;
  }
  const ranges: [number, number][] = [];
  let first = true;
  while (i < characters.length) {
    let character = characters[i] ?? "";
    if (character === "]" && !first) return [{ kind: "class", negated, ranges }, i + 1];
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
      if (codePointOf(character) > codePointOf(high)) {
        throw new PatternDetail(`reversed range ${character}-${high}`);
      }
      ranges.push([codePointOf(character), codePointOf(high)]);
      i = next;
      continue;
    }
    ranges.push([codePointOf(character), codePointOf(character)]);
    i += 1;
  }
  throw new PatternDetail(PATTERN_DETAILS.unclosedClass);
}

/** Compiles one segment other than `**`. */
function compileSegment(segment: string): GlobSegment {
  const characters = Array.from(segment);
  const runs: CharMatcher[][] = [[]];
  let current = runs[0] as CharMatcher[];
  let literal = "";
  let wild = false;
  let i = 0;
  while (i < characters.length) {
    const character = characters[i] ?? "";
    if (character === "\\") {
      const escaped = characters[i + 1];
      if (escaped === undefined) throw new PatternDetail(PATTERN_DETAILS.unfinishedEscape);
      current.push({ kind: "literal", codePoint: codePointOf(escaped) });
      literal += escaped;
      i += 2;
    } else if (character === "*") {
      if (characters[i + 1] === "*") throw new PatternDetail(PATTERN_DETAILS.globstarInSegment);
      current = [];
      runs.push(current);
      wild = true;
      i += 1;
    } else if (character === "?") {
      current.push({ kind: "any" });
      wild = true;
      i += 1;
    } else if (character === "[") {
      const [matcher, next] = compileClass(characters, i + 1);
      current.push(matcher);
      wild = true;
      i = next;
    } else {
      current.push({ kind: "literal", codePoint: codePointOf(character) });
      literal += character;
      i += 1;
    }
  }
  if (!wild) return { kind: "literal", text: literal };
  return { kind: "wildcard", pattern: segmentPattern(runs) };
}

/** Whether `segment` matches the compiled pattern segment (not `**`). */
function segmentMatches(pattern: GlobSegment, segment: string): boolean {
  if (pattern.kind === "literal") return pattern.text === segment;
  if (pattern.kind === "wildcard") return pattern.pattern.matches(segment);
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

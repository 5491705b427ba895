import type { Prompt } from "@runvil/parser";
import { type HeadingReference, parseHeadingReference } from "./heading-reference";

/**
 * The prompt's sections as a tree the walk navigates: target resolution (visibility, nearest
 * first) and fall-through within a chain's container. Section indexes are the parser's
 * (`Prompt.sections`); `null` stands for the prompt root (the H1 level).
 */
export class SectionTree {
  private readonly prompt: Prompt;
  private readonly roots: readonly number[];

  constructor(prompt: Prompt) {
    this.prompt = prompt;
    this.roots = prompt.sections.filter((s) => s.parent === null).map((s) => s.index);
  }

  /** The first top-level section, where the main walk starts, or null for a prompt with none. */
  get firstSection(): number | null {
    return this.roots[0] ?? null;
  }

  /** The children of `section`, or the top-level sections for the root. */
  childrenOf(section: number | null): readonly number[] {
    return section === null ? this.roots : (this.prompt.sections[section]?.children ?? []);
  }

  /** The parent of `section` (null for a top-level section). */
  parentOf(section: number): number | null {
    return this.prompt.sections[section]?.parent ?? null;
  }

  /**
   * Resolves `target` (a heading reference) from the code of section `from` (null: the H1
   * pass): `from`'s children first, then the children of each ancestor outward, then the top
   * level; the first match in file order at the nearest scope. Returns null when the text is
   * not a heading reference or names no visible section.
   */
  resolve(target: string, from: number | null): number | null {
    const reference = parseHeadingReference(target);
    if (reference === null) return null;
    let scope: number | null = from;
    for (;;) {
      const found = this.findChild(scope, reference);
      if (found !== null) return found;
      if (scope === null) return null;
      scope = this.parentOf(scope);
    }
  }

  /**
   * The section fall-through enters after `current` in a chain whose container is `container`
   * (null: the whole prompt): the next sibling, else the parent's next sibling, and so on, never
   * climbing out of the container. Null when the chain has no next section.
   */
  next(current: number, container: number | null): number | null {
    let section = current;
    for (;;) {
      const parent = this.parentOf(section);
      if (!this.isWithin(parent, container)) return null;
      const siblings = this.childrenOf(parent);
      const place = siblings.indexOf(section);
      const sibling = siblings[place + 1];
      if (sibling !== undefined) return sibling;
      if (parent === null || parent === container) return null;
      section = parent;
    }
  }

  /** Whether `section` (null: the root) is `container` or inside it. */
  isWithin(section: number | null, container: number | null): boolean {
    if (container === null) return true;
    let at = section;
    while (at !== null) {
      if (at === container) return true;
      at = this.parentOf(at);
    }
    return false;
  }

  private findChild(scope: number | null, reference: HeadingReference): number | null {
    for (const child of this.childrenOf(scope)) {
      const section = this.prompt.sections[child];
      if (section?.level === reference.level && section.name === reference.name) return child;
    }
    return null;
  }
}

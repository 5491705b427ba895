/** Shape of a generated benchmark prompt. */
export interface GeneratedPrompt {
  /** The prompt text. */
  text: string;
  /** Its number of lines. */
  lines: number;
  /** Its number of Lua blocks. */
  blocks: number;
  /** The blocks' sources, in file order. */
  sources: string[];
}

/**
 * A realistic large prompt: frontmatter, a title with one H1 block, and `sections` sections
 * (every tenth one a `###` child), each with a short list, and `blocksPerSection` Lua blocks of
 * three lines with two lines of prose (holding a placeholder) between them.
 */
export function generatePrompt(sections = 100, blocksPerSection = 5): GeneratedPrompt {
  const out = [
    "---",
    "name: bench-prompt",
    "description: A generated prompt for the parser benchmark.",
    "runvil: 0",
    "uses: [web, user-input]",
    "models:",
    "  writer: {}",
    "---",
    "",
    "# Benchmark prompt",
    "",
    "```lua",
    "argv.limit = argv.limit or 10",
    "```",
    "",
  ];
  const sources = ["argv.limit = argv.limit or 10"];
  for (let s = 0; s < sections; s++) {
    out.push(`${s % 10 === 9 ? "###" : "##"} Section ${s}`, "");
    for (let b = 0; b < blocksPerSection; b++) {
      const source = [
        `local items_${b} = { ${s}, ${b}, 'x' }`,
        `for i, v in ipairs(items_${b}) do var.total = (var.total or 0) + i end`,
        `if var.total > ${s * 10 + b} then log('step ${s}.${b}') end`,
      ];
      sources.push(source.join("\n"));
      out.push("```lua", ...source, "```", "");
      out.push(`Prose for step ${b} of section ${s}, with a placeholder {{ var.total }}.`);
      out.push("It goes on for a second line so the paragraph has some body.", "");
    }
    out.push("- a first point", "- a second point", "- a third point", "");
  }
  const text = `${out.join("\n")}\n`;
  return { text, lines: out.length, blocks: sources.length, sources };
}

/**
 * A prompt of `sections` typical sections: a `##` heading, a line of prose with a placeholder
 * and one two-line Lua block (the per-section cost of the parse goal).
 */
export function generateSectionPrompt(sections = 1000): GeneratedPrompt {
  const out = [
    "---",
    "name: sections",
    "description: Many small sections.",
    "runvil: 0",
    "---",
    "",
  ];
  out.push("# Sections", "");
  const sources: string[] = [];
  for (let s = 0; s < sections; s++) {
    const source = `var.total = (var.total or 0) + ${s}\nlog('section ${s}')`;
    sources.push(source);
    out.push(`## Section ${s}`, "", `Step ${s} adds to the total, now {{ var.total }}.`, "");
    out.push("```lua", source, "```", "");
  }
  const text = `${out.join("\n")}\n`;
  return { text, lines: out.length + sections, blocks: sources.length, sources };
}

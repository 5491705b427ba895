import { decode } from "fast-png";

/** What a screenshot holds, for a test to check that it shows something. */
export interface PngStats {
  readonly width: number;
  readonly height: number;
  /** How many distinct colours (RGB, alpha left out) it has. */
  readonly colours: number;
  /** The share of pixels that differ from the top-left pixel's colour (the page's background). */
  readonly inked: number;
}

/** Decodes a PNG screenshot and measures it. */
export function pngStats(png: Uint8Array): PngStats {
  const image = decode(png);
  const channels = image.channels;
  const data = image.data;
  const colours = new Set<number>();
  const pixels = image.width * image.height;
  const bg = [data[0], data[1], data[2]];
  let inked = 0;
  for (let i = 0; i < pixels; i += 1) {
    const o = i * channels;
    const r = Number(data[o]);
    const g = Number(data[o + 1]);
    const b = Number(data[o + 2]);
    colours.add((r << 16) | (g << 8) | b);
    if (r !== bg[0] || g !== bg[1] || b !== bg[2]) inked += 1;
  }
  return { width: image.width, height: image.height, colours: colours.size, inked: inked / pixels };
}

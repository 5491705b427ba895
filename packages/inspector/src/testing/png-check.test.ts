import { encode } from "fast-png";
import { describe, expect, it } from "vitest";
import { pngStats } from "./png-check";

function png(width: number, height: number, paint: (x: number, y: number) => number[]): Uint8Array {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y += 1)
    for (let x = 0; x < width; x += 1) data.set(paint(x, y), (y * width + x) * 3);
  return encode({ width, height, data, channels: 3, depth: 8 });
}

describe("screenshot checks", () => {
  it("finds a blank picture blank", () => {
    expect(pngStats(png(40, 20, () => [255, 255, 255]))).toEqual({
      width: 40,
      height: 20,
      colours: 1,
      inked: 0,
    });
  });

  it("measures how much of a picture differs from its background", () => {
    const stats = pngStats(png(10, 10, (x) => (x < 3 ? [200, 0, 0] : [255, 255, 255])));
    expect(stats.colours).toBe(2);
    expect(stats.inked).toBeCloseTo(0.7);
  });
});

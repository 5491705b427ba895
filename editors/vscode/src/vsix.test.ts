import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/** The entry names of a zip file, read from its central directory (a .vsix is a zip). */
function zipEntries(bytes: Buffer): string[] {
  const end = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error("not a zip file: no end of central directory record");
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    if (bytes.readUInt32LE(at) !== 0x02014b50) throw new Error(`bad central directory entry ${i}`);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    names.push(bytes.toString("utf8", at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  main: string;
  contributes: {
    grammars: { path: string }[];
    snippets: { path: string }[];
    languages: { configuration: string }[];
  };
};

describe("the extension package", () => {
  it("names files that exist for its entry point and every contribution", () => {
    const paths = [
      manifest.main,
      ...manifest.contributes.grammars.map((g) => g.path),
      ...manifest.contributes.snippets.map((s) => s.path),
      ...manifest.contributes.languages.map((l) => l.configuration),
    ];
    for (const path of paths)
      expect(existsSync(new URL(`../${path}`, import.meta.url)), path).toBe(true);
  });

  it("builds a .vsix holding the bundle and the contributions, and no sources or tests", () => {
    const vsix = new URL("../dist/runvil-vscode.vsix", import.meta.url);
    const entries = zipEntries(readFileSync(vsix));
    expect(entries).toEqual(
      expect.arrayContaining([
        "extension.vsixmanifest",
        "extension/package.json",
        "extension/dist/extension.cjs",
        "extension/syntaxes/runvil-prompt.tmLanguage.json",
        "extension/snippets/runvil-prompt.code-snippets",
        "extension/language-configuration.json",
        "extension/readme.md",
      ]),
    );
    expect(
      entries.filter((e) => /\/(src|test|node_modules)\//.test(e) || e.endsWith(".map")),
    ).toEqual([]);
  });
});

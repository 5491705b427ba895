import { describe, expect, it } from "vitest";
import { htmlToText } from "./html-text";

const BASE = "https://www.lua.org/docs/index.html";

describe("htmlToText", () => {
  it("keeps headings in their own case and paragraphs apart", async () => {
    expect(await htmlToText("<h1>Lua Docs</h1><p>One.</p><p>Two.</p>", BASE)).toBe(
      "Lua Docs\n\nOne.\n\nTwo.",
    );
  });

  it("drops scripts, styles, templates and SVG drawings", async () => {
    const html =
      "<style>p{}</style><script>evil()</script><p>kept</p><template>tpl</template><svg><text>drawn</text></svg>";
    expect(await htmlToText(html, BASE)).toBe("kept");
  });

  it("writes links as text [absolute url], resolving relative ones against the page", async () => {
    const html =
      '<p><a href="manual.html">Manual</a>, <a href="/about">About</a>, <a href="https://x.org/">https://x.org/</a></p>';
    expect(await htmlToText(html, BASE)).toBe(
      "Manual [https://www.lua.org/docs/manual.html], About [https://www.lua.org/about], https://x.org/",
    );
  });

  it("hides script links and same-page anchors, keeps e-mail addresses", async () => {
    const html =
      '<p><a href="javascript:void(0)">Menu</a> <a href="#top">Top</a> <a href="mailto:team@lua.org">Mail</a></p>';
    expect(await htmlToText(html, BASE)).toBe("Menu Top Mail [team@lua.org]");
  });

  it("shows images as their alt text only", async () => {
    expect(
      await htmlToText('<p><img src="logo.png" alt="Lua logo"> <img src="x.gif"> end</p>', BASE),
    ).toBe("Lua logo end");
  });

  it("renders lists as items and does not wrap long lines", async () => {
    const long = "word ".repeat(40).trim();
    expect(await htmlToText(`<ul><li>a</li><li>b</li></ul><p>${long}</p>`, BASE)).toBe(
      ` * a\n * b\n\n${long}`,
    );
  });
});

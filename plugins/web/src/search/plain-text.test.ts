import { describe, expect, it } from "vitest";
import { plainText } from "./plain-text";

describe("plainText", () => {
  it("removes tags and decodes entities", () => {
    expect(
      plainText("The <strong>Lua</strong> &amp; C &lt;API&gt; &#39;guide&#x27; &quot;x&quot;"),
    ).toBe("The Lua & C <API> 'guide' \"x\"");
  });

  it("keeps unknown and invalid entities as written", () => {
    expect(plainText("&bogus; &#0; &#xD800; &#x110000;")).toBe("&bogus; &#0; &#xD800; &#x110000;");
  });
});

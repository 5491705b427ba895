import { describe, expect, it } from "vitest";
import { escapeHtml, messagePage, pageShell } from "./html";

describe("the HTML the server writes", () => {
  it("escapes the five characters that matter in text and quoted attributes", () => {
    expect(escapeHtml(`<img src=x onerror="a('b')">&amp;`)).toBe(
      "&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt;&amp;amp;",
    );
  });

  it("escapes the journal's name and the message in every page", () => {
    const shell = pageShell({ title: "<t>", journal: "/tmp/<b>.db", pollMs: 1000 });
    expect(shell).toContain("<title>&lt;t&gt;</title>");
    expect(shell).toContain('<span class="journal">/tmp/&lt;b&gt;.db</span>');
    expect(shell).toContain('data-poll-ms="1000"');
    const page = messagePage("No such run", "no run <script>", "j");
    expect(page).toContain('<p class="message">no run &lt;script&gt;</p>');
    expect(page).not.toContain("<script>");
  });
});

import type { HtmlToTextOptions } from "html-to-text";

type Convert = (html: string, options: HtmlToTextOptions) => string;

/** html-to-text's converter, imported at the first HTML page (see {@link htmlToText}). */
let converter: Promise<Convert> | undefined;

function loadConverter(): Promise<Convert> {
  if (converter === undefined) {
    const loading = import("html-to-text").then((module) => module.convert);
    converter = loading;
    loading.catch(() => {
      if (converter === loading) converter = undefined;
    });
  }
  return converter;
}

const HEADINGS = ["h1", "h2", "h3", "h4", "h5", "h6"];

/** Drops everything an HTML reader would not read as text. */
const SKIPPED = ["script", "style", "template", "svg", "canvas", "iframe", "object", "embed"];

function options(baseUrl: string): HtmlToTextOptions {
  return {
    wordwrap: false,
    formatters: {
      imageAlt(elem, _walk, builder) {
        const alt = elem.attribs?.alt?.trim();
        if (alt) builder.addInline(alt);
      },
    },
    selectors: [
      ...SKIPPED.map((selector) => ({ selector, format: "skip" })),
      ...HEADINGS.map((selector) => ({ selector, options: { uppercase: false } })),
      { selector: "img", format: "imageAlt" },
      {
        selector: "a",
        options: {
          hideLinkHrefIfSameAsText: true,
          linkBrackets: ["[", "]"],
          pathRewrite: (href: string) => linkTarget(href, baseUrl),
        },
      },
    ],
  };
}

/** Link targets that are not worth showing: scripts and inline data. */
const HIDDEN_SCHEMES = new Set(["javascript:", "data:", "vbscript:"]);

/**
 * The target a link shows: an absolute URL as written, a relative one resolved against the
 * page's URL, an e-mail address (its `mailto:` already removed) as is, and nothing (`""`) for
 * `javascript:` and `data:` links.
 */
function linkTarget(href: string, baseUrl: string): string {
  const target = href.trim();
  if (/^[^\s/:@]+@[^\s/:@]+$/.test(target)) return target;
  try {
    const url = new URL(target, baseUrl);
    return HIDDEN_SCHEMES.has(url.protocol) ? "" : url.href;
  } catch {
    return target;
  }
}

/**
 * Turns an HTML page into readable text: block structure as line breaks, lists as ` * ` items,
 * headings in their own case, links as `text [absolute url]` (the url alone when it is the
 * text), images as their alt text; scripts, styles, templates and embedded objects dropped.
 * Relative links are resolved against `baseUrl`, the page's final URL.
 * Async because html-to-text (and its HTML parser) is imported at the first page only: loading
 * it at start-up cost every `runvil run` tens of milliseconds (docs/design/performance.md).
 */
export async function htmlToText(html: string, baseUrl: string): Promise<string> {
  const convert = await loadConverter();
  return convert(html, options(baseUrl));
}

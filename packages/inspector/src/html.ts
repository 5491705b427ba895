const ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Text made safe for HTML text and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** What the page's shell carries for its script. */
export interface ShellOptions {
  /** The document title. */
  readonly title: string;
  /** The journal, shown in the header. */
  readonly journal: string;
  /** How often the page polls the journal while something may change, in ms. */
  readonly pollMs: number;
}

/**
 * The HTML every page route serves: the header, an empty main the script fills, the script.
 * Everything dynamic goes through {@link escapeHtml}; the script renders with text nodes only.
 */
export function pageShell(options: ShellOptions): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)}</title>
<link rel="stylesheet" href="/page.css">
</head>
<body data-poll-ms="${escapeHtml(String(options.pollMs))}">
<header><a href="/" class="brand">Runvil inspector</a><span class="journal">${escapeHtml(options.journal)}</span></header>
<main id="app"><p class="loading">Loading…</p></main>
<script src="/page.js"></script>
</body>
</html>
`;
}

/** A page that says what went wrong (a run that does not exist, a bad request). */
export function messagePage(title: string, message: string, journal: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="/page.css">
</head>
<body>
<header><a href="/" class="brand">Runvil inspector</a><span class="journal">${escapeHtml(journal)}</span></header>
<main><h1>${escapeHtml(title)}</h1><p class="message">${escapeHtml(message)}</p><p><a href="/">All runs</a></p></main>
</body>
</html>
`;
}

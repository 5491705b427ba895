/** The page's style sheet, served at /page.css. */
export const PAGE_CSS = `
:root { color-scheme: light; --fg: #1d232b; --muted: #5d6875; --line: #d9dee4; --bg: #f6f7f9;
  --ok: #1a7f37; --bad: #c62828; --run: #9a6700; --warn-bg: #fff4e5; --mono: ui-monospace, "DejaVu Sans Mono", monospace; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, "DejaVu Sans", sans-serif; color: var(--fg); background: #fff; }
header { display: flex; gap: 16px; align-items: baseline; padding: 10px 20px; background: #20262e; color: #fff; }
header a.brand { color: #fff; font-weight: 700; text-decoration: none; }
header .journal { color: #b8c1cc; font-family: var(--mono); font-size: 12px; }
main { padding: 16px 20px 40px; max-width: 1200px; }
h1 { font-size: 20px; margin: 4px 0 12px; }
h2 { font-size: 16px; margin: 20px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 14px; margin: 0 0 6px; }
h4 { font-size: 12px; margin: 8px 0 2px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
table.runs { border-collapse: collapse; width: 100%; }
table.runs th, table.runs td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
table.runs th { background: var(--bg); font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.prompt { font-family: var(--mono); font-size: 12px; word-break: break-all; }
a.run-link { font-family: var(--mono); }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px; font-weight: 600; background: var(--bg); border: 1px solid var(--line); }
.badge.outcome-succeeded { color: var(--ok); border-color: var(--ok); }
.badge.outcome-failed { color: var(--bad); border-color: var(--bad); }
.badge.outcome-running { color: var(--run); border-color: var(--run); }
.badge.untrusted { color: #8a4b00; background: var(--warn-bg); border-color: #e0a040; margin-left: 6px; }
.live { color: var(--run); font-weight: 600; }
.problem { background: #fdecea; color: var(--bad); padding: 8px 12px; border-radius: 4px; }
dl.summary { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 0 0 8px; }
dl.summary dt { color: var(--muted); }
dl.summary dd { margin: 0; font-family: var(--mono); font-size: 12px; word-break: break-all; }
.ending { border: 1px solid var(--line); border-left: 4px solid var(--muted); padding: 4px 12px 10px; border-radius: 4px; }
.ending.outcome-succeeded { border-left-color: var(--ok); }
.ending.outcome-failed { border-left-color: var(--bad); }
.ending.running { border-left-color: var(--run); }
.ending h2 { border: 0; margin: 6px 0; }
.entry { border: 1px solid var(--line); border-radius: 4px; padding: 8px 12px; margin: 8px 0; background: #fff; }
ol.items { list-style: none; margin: 0; padding: 0; }
li.item { padding: 4px 0 4px 8px; border-top: 1px dashed var(--line); }
li.item:first-child { border-top: 0; }
.kind { display: inline-block; min-width: 44px; font-family: var(--mono); font-size: 12px; font-weight: 700; color: var(--muted); }
li.item-model .kind { color: #6639ba; }
li.item-tool .kind { color: #0b61a4; }
li.item-store .kind { color: #116329; }
li.item-block[data-status="failed"] { color: var(--bad); }
.meta { color: var(--muted); font-size: 12px; }
pre { margin: 2px 0; padding: 6px 8px; background: var(--bg); border-radius: 4px; font: 12px/1.4 var(--mono); white-space: pre-wrap; word-break: break-word; max-height: 320px; overflow: auto; }
.output.untrusted pre { background: var(--warn-bg); border: 1px dashed #e0a040; }
.failed, .error-message { color: var(--bad); }
.retry { color: var(--run); margin: 2px 0; }
ol.messages { margin: 0; padding-left: 18px; }
.message .role { font-weight: 700; margin-right: 8px; }
.message .note { color: var(--muted); font-size: 12px; }
pre.prompt-lines { max-height: none; }
pre.prompt-lines .line { display: block; }
pre.prompt-lines .n { color: var(--muted); user-select: none; }
pre.prompt-lines .marked { background: #ffe0e0; font-weight: 700; }
details { margin: 2px 0; }
summary { cursor: pointer; }
`;

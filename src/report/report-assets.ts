import { createHash } from 'node:crypto';

/** The report's whole stylesheet, inlined into the page (no fonts or files are loaded). */
export const REPORT_CSS = `
:root { --fg: #1d2430; --muted: #5b6576; --line: #d9dee7; --bg: #ffffff; --panel: #f6f8fb;
  --good: #2f7d4f; --good-bg: #e5f4ea; --bad: #b3261e; --bad-bg: #fbe9e7; --warn: #8a5a00; --warn-bg: #fff4d6;
  --info-bg: #e8eefb; --mono: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, "DejaVu Sans", "Segoe UI", Helvetica, Arial, sans-serif; color: var(--fg); background: var(--bg); }
header, main, footer { max-width: 1180px; margin: 0 auto; padding: 0 20px; }
header { padding-top: 18px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 28px 0 10px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
h3 { font-size: 15px; margin: 18px 0 8px; }
.subtitle { color: var(--muted); margin: 0 0 10px; }
nav { display: flex; flex-wrap: wrap; gap: 12px; margin: 8px 0 4px; font-size: 13px; }
a { color: #2a55a8; }
.banner { border-radius: 6px; padding: 10px 14px; margin: 8px 0; font-weight: 600; }
.banner.sim { background: var(--warn-bg); border: 1px solid #e0b44c; color: var(--warn); }
.banner.sym { background: var(--info-bg); border: 1px solid #9db2e6; color: #27427d; }
.banner.warn { background: var(--bad-bg); border: 1px solid #e3a49d; color: var(--bad); font-weight: 500; }
.badge { display: inline-block; font-size: 11px; font-weight: 700; letter-spacing: .02em; border-radius: 4px; padding: 1px 6px; margin: 0 2px; vertical-align: 1px; white-space: nowrap; }
.badge.sim { background: var(--warn-bg); color: var(--warn); border: 1px solid #e0b44c; }
.badge.sym { background: var(--info-bg); color: #27427d; border: 1px solid #9db2e6; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(200px, 1fr)); gap: 10px; }
.card { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 10px 12px; }
.card .label { color: var(--muted); font-size: 12px; }
.card .value { font-size: 18px; font-weight: 650; margin-top: 2px; }
.card .value.pos { color: var(--good); } .card .value.neg { color: var(--bad); }
table { border-collapse: collapse; width: 100%; margin: 6px 0 10px; font-size: 13px; }
caption { text-align: left; color: var(--muted); padding: 2px 0 6px; }
th, td { border-bottom: 1px solid var(--line); padding: 5px 8px; text-align: left; vertical-align: top; }
th { background: var(--panel); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.rescued td { background: var(--good-bg); } tr.regressed td { background: var(--bad-bg); }
.pos { color: var(--good); } .neg { color: var(--bad); } .muted { color: var(--muted); }
.status { display: inline-block; border-radius: 4px; padding: 0 6px; font-size: 12px; font-weight: 600; background: #eceff4; white-space: nowrap; }
.status.scored { background: var(--good-bg); color: var(--good); }
.status.inert, .status.no_failures, .status.no_patch_proposed { background: #eceff4; color: var(--muted); }
.status.invalid_patch_treated_as_no_patch, .status.runtime_noop_patch_treated_as_no_patch, .status.engineer_request_failed_treated_as_no_patch { background: var(--bad-bg); color: var(--bad); }
.status.missing_evaluation, .status.no_scored_baseline { background: var(--warn-bg); color: var(--warn); }
.change.rescued { color: var(--good); font-weight: 600; } .change.regressed { color: var(--bad); font-weight: 600; }
figure { margin: 10px 0 18px; }
figure svg { max-width: 100%; height: auto; border: 1px solid var(--line); border-radius: 6px; }
figcaption { color: var(--muted); font-size: 13px; margin-top: 4px; max-width: 760px; }
.charts { display: flex; flex-wrap: wrap; gap: 24px; align-items: flex-start; }
.charts.pair > figure { flex: 1 1 420px; max-width: 560px; }
pre, code { font-family: var(--mono); font-size: 12px; }
pre { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; overflow-x: auto; white-space: pre-wrap; word-break: break-word; margin: 4px 0 8px; }
pre.code { white-space: pre; }
.batch { border: 1px solid var(--line); border-radius: 8px; padding: 4px 14px 10px; margin: 12px 0; }
.verdict { font-weight: 700; } .verdict.valid { color: var(--good); } .verdict.invalid { color: var(--bad); }
details { margin: 4px 0; }
details > summary { cursor: pointer; padding: 3px 0; }
details.episode { border-left: 3px solid var(--line); padding-left: 10px; margin: 6px 0; }
details.episode.patched { border-left-color: var(--good); }
.task { margin: 14px 0; }
.hooks { margin: 2px 0; padding-left: 18px; }
.hooks li { font-family: var(--mono); font-size: 12px; }
ul.notes { margin: 4px 0; padding-left: 20px; }
.toolbar { display: none; gap: 8px; margin: 4px 0 8px; }
html.js .toolbar { display: flex; }
button { font: inherit; font-size: 12px; padding: 2px 8px; border: 1px solid var(--line); border-radius: 4px; background: var(--panel); cursor: pointer; }
footer { color: var(--muted); font-size: 12px; padding: 24px 20px 30px; }
@media print { .toolbar, nav { display: none !important; } details { break-inside: avoid; } }
`;

/**
 * The report's only script: "expand all / collapse all" buttons for the trajectories, and opening the
 * episodes of a task when its link is followed. The report reads fine without it.
 */
export const REPORT_SCRIPT = `(function () {
  document.documentElement.classList.add('js');
  document.querySelectorAll('button[data-details]').forEach(function (button) {
    button.addEventListener('click', function () {
      var open = button.getAttribute('data-details') === 'open';
      var scope = document.getElementById(button.getAttribute('data-scope') || '') || document;
      scope.querySelectorAll('details').forEach(function (d) { d.open = open; });
    });
  });
  function openTarget() {
    var target = location.hash ? document.getElementById(location.hash.slice(1)) : null;
    if (target) target.querySelectorAll('details.episode').forEach(function (d) { d.open = true; });
  }
  window.addEventListener('hashchange', openTarget);
  openTarget();
})();`;

/** Content-Security-Policy of the report: nothing can be loaded, and only the report's own script runs. */
export const REPORT_CSP = `default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-${createHash('sha256').update(REPORT_SCRIPT).digest('base64')}'; base-uri 'none'; form-action 'none'`;

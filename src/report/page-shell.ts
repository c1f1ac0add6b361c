import { html, trustedHtml, type SafeHtml } from './html.js';
import { REPORT_CSP, REPORT_CSS, REPORT_SCRIPT } from './report-assets.js';

/** What one report page puts around its body: head, header with banners and navigation, footer. */
export interface PageShell {
  title: string;
  heading: SafeHtml;
  subtitle: string;
  /** `data-*` attributes of `<body>` (kind, provenance), written in this order. */
  bodyData: [string, string][];
  /** Banners and warnings under the subtitle. */
  banners: SafeHtml;
  sections: readonly (readonly string[])[];
  body: SafeHtml;
  footer: SafeHtml;
  generatedAt?: string;
}

/**
 * One self-contained HTML document: inline CSS, one small inline script, and a Content-Security-Policy that
 * forbids loading anything. Every page of the report (a run, an improve run, an experiment) is this shell.
 */
export function renderPageShell(p: PageShell): string {
  const data = p.bodyData.map(([k, v]) => html` data-${k}="${v}"`);
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="harness-r1 report">
<title>${p.title}</title>
<style>${trustedHtml(REPORT_CSS)}</style>
</head>
<body${data}>
<header>
<h1>${p.heading}</h1>
<p class="subtitle">${p.subtitle}</p>
${p.banners}
<nav>${p.sections.map(([id, label]) => html`<a href="#${id ?? ''}">${label ?? ''}</a>`)}</nav>
</header>
<main>
${p.body}
</main>
<footer>${p.footer}${p.generatedAt ? ` Generated ${p.generatedAt}.` : ''}</footer>
<script>${trustedHtml(REPORT_SCRIPT)}</script>
</body>
</html>
`;
  return page.value;
}

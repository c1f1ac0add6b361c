import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { AblationArtifact } from '../../src/experiments/ablation/ablation-summary.js';
import type { HeldoutArtifact } from '../../src/experiments/heldout/heldout-summary.js';
import { formatPassCount } from '../../src/report/format-numbers.js';
import { formatPairedSummary, formatSeedSpread } from '../../src/statistics/index.js';
import { PROJECT_ROOT, runCli } from './cli-helpers.js';
import { pngDistinctColors } from './png-colors.js';
import { checkPageLinks, chromium, CHROMIUM, HAS_CHROMIUM, pageRow } from './report-page-helpers.js';

/**
 * Both experiments are run offline on tiny slices (simulated targets, the symbolic engineer, the real
 * sandbox) by the real CLI, then `harness-r1 report` writes their pages. The tests read the numbers of
 * heldout.json / ablation.json back out of the page's cells, follow every link into the run directory, and
 * open both pages in headless chromium (DOM and screenshot).
 */
const root = mkdtempSync(path.join(tmpdir(), 'harness-report-exp-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const dataDir = process.env.HARNESS_DATA_DIR ?? path.join(PROJECT_ROOT, '..', 'shared', 'data');
const patch = path.join(dataDir, 'patches', 'heldout_generalization', 'harness-r1', 'seed20260721', 'webshop.json');
const heldoutDir = path.join(root, 'heldout');
const ablationDir = path.join(root, 'ablation');

/** The text of a cell: tags dropped, entities of the escaper undone. */
function text(markup: string): string {
  return markup.replace(/<[^>]*>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&').replace(/\s+/g, ' ').trim();
}

function cell(rowHtml: string, name: string): string {
  const m = new RegExp(`<td[^>]*data-cell="${name}"[^>]*>(.*?)</td>`, 's').exec(rowHtml);
  expect(m, name).not.toBeNull();
  return text(m![1]!);
}

let heldout: HeldoutArtifact;
let ablation: AblationArtifact;

beforeAll(async () => {
  const h = await runCli(['experiment', 'heldout', '--bench', 'dbbench', '--split', 'dev', '--tasks', '0:16', '--target', 'sim:dbbench?seed=3', '--evidence', '3', '--seeds', '11,12', '--resamples', '300', '--out', heldoutDir, '--json']);
  expect(h.code, h.stderr).toBe(0);
  heldout = JSON.parse(h.stdout) as HeldoutArtifact;
  const a = await runCli(['experiment', 'ablation', '--bench', 'webshop', '--tasks', '0:4', '--target', 'sim:webshop?seed=4', '--patch', patch, '--repeats', '2', '--resamples', '300', '--out', ablationDir, '--json']);
  expect(a.code, a.stderr).toBe(0);
  ablation = JSON.parse(a.stdout) as AblationArtifact;
  for (const dir of [heldoutDir, ablationDir]) {
    const r = await runCli(['report', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(path.join(dir, 'report.html'));
    expect(r.stdout).toMatch(/SIMULATED TARGET/);
  }
}, 600_000);

describe('harness-r1 report on an experiment run directory', () => {
  it('held-out page: every seed\'s numbers in their cells, the pooled row, labels, links into the run directory', () => {
    const file = path.join(heldoutDir, 'report.html');
    const page = readFileSync(file, 'utf8');
    expect(page).toContain('data-experiment="heldout"');
    expect(page).toContain('data-simulated-target="true" data-symbolic-engineer="true"');
    expect(page).toContain('SIMULATED TARGET — every episode');
    expect(page).toContain('SYMBOLIC ENGINEER — the patches');
    for (const s of heldout.seeds) {
      const r = pageRow(page, 'data-seed', String(s.seed));
      expect(cell(r, 'heldout-baseline')).toBe(formatPassCount(s.heldOut.baselinePass, s.heldOut.tasks));
      expect(cell(r, 'heldout-patched')).toBe(formatPassCount(s.valid ? s.heldOut.patchedPass : s.heldOut.baselinePass, s.heldOut.tasks));
      expect(cell(r, 'rescued')).toBe(String(s.heldOut.rescued));
      expect(cell(r, 'regressed')).toBe(String(s.heldOut.regressed));
      expect(cell(r, 'heldout-delta')).toBe(formatPairedSummary(s.heldOut.paired));
      expect(cell(r, 'heldout-delta')).toMatch(/\[95% CI .*\], McNemar p=/);
      expect(cell(r, 'full-baseline')).toBe(formatPassCount(s.fullSplit.baselinePass, s.fullSplit.tasks));
      expect(cell(r, 'full-delta')).toBe(formatPairedSummary(s.fullSplit.paired));
      expect(cell(r, 'evidence')).toBe(String(s.evidenceTaskIds.length));
      expect(cell(r, 'valid')).toBe(s.valid ? 'valid' : 'no intervention');
      if (s.patchFile) expect(r).toContain(`href="${s.patchFile}"`);
      if (s.valid) expect(r).toContain(`href="arms/seed${s.seed}-heldout/report.html"`);
      // Every task of the seed is listed, linked to its baseline episode.
      for (const t of s.evidenceTaskIds) expect(page).toMatch(new RegExp(`id="seed-${s.seed}-tasks".*?<tr data-task="${t}" data-role="evidence"`, 's'));
    }
    const pooled = pageRow(page, 'data-seed', 'pooled');
    expect(cell(pooled, 'heldout-delta')).toBe(formatSeedSpread(heldout.pooled.deltaRate));
    expect(cell(pooled, 'full-delta')).toBe(formatSeedSpread(heldout.fullSplit.deltaRate));
    expect(cell(pooled, 'valid')).toBe(heldout.pooled.valid);
    expect(page).toContain(`data-metric="pooled-heldout">${formatSeedSpread(heldout.pooled.deltaRate)}<`);
    expect(page).toMatch(/<figure id="chart-heldout"[^>]*><svg/);
    expect(page).toMatch(/<figure id="chart-full-split"[^>]*><svg/);
    expect(page).toContain('href="baseline/report.html#task-');
    expect(checkPageLinks(file)).toBeGreaterThan(heldout.seeds.length * 5);
    expect(page).not.toMatch(/<link|<iframe|https?:\/\/(?!www\.w3\.org)/);
    // Played without a strategy: no strategy line and no success@2 column.
    expect(page).not.toContain('data-metric="strategy"');
    expect(page).not.toContain('success@2');
  });

  it('ablation page: Table 13.1 cells (drop vs full in brackets), paired statistics, runs and patch linked', () => {
    const file = path.join(ablationDir, 'report.html');
    const page = readFileSync(file, 'utf8');
    expect(page).toContain('data-experiment="ablation"');
    expect(page).toContain('data-simulated-target="true" data-symbolic-engineer="false"');
    expect(page).toContain('<th class="num">WebShop Succ.</th><th class="num">WebShop Score</th>');
    const pct = (x: number) => (x * 100).toFixed(1);
    const signed = (x: number) => `${Number((x * 100).toFixed(1)) >= 0 ? '+' : '−'}${Math.abs(Number((x * 100).toFixed(1))).toFixed(1)}`;
    for (const r of ablation.rows) {
      const tr = pageRow(page, 'data-arm', r.arm);
      const sd = r.success.sd === null ? '' : ` ± ${pct(r.success.sd)}`;
      expect(cell(tr, 'success')).toBe(`${pct(r.success.mean)}${sd}${r.arm === 'full' ? '' : ` (${signed(r.dropVsFull.mean)})`}`);
      expect(cell(tr, 'avg')).toBe(cell(tr, 'success'));
      expect(cell(tr, 'score')).toContain(pct(r.score!.mean));
      if (r.paired) expect(cell(tr, 'paired')).toContain(formatPairedSummary(r.paired));
      else expect(cell(tr, 'paired')).toBe('—');
      for (const dir of r.runs) expect(tr).toContain(`href="${dir}/report.html"`);
    }
    expect(page).toContain('href="patch.json"');
    const stored = JSON.parse(readFileSync(path.join(ablationDir, 'patch.json'), 'utf8')) as { actions: { hook?: string }[] };
    expect(stored.actions.map((x) => x.hook).filter(Boolean)).toEqual(ablation.patchHooks);
    expect(page).toMatch(/<figure id="chart-ablation"[^>]*><svg/);
    expect(page).toMatch(/<figure id="chart-ablation-drop"[^>]*><svg/);
    expect(page).toContain('href="arms/r2-no_on_before_action/report.html#task-');
    expect(checkPageLinks(file)).toBeGreaterThan(ablation.rows.length);
    expect(page).not.toContain('data-metric="strategy"');
    expect(page).not.toContain('success@2');
  });

  it('--out elsewhere: links stay relative and still resolve', async () => {
    const out = path.join(root, 'elsewhere', 'page.html');
    const r = await runCli(['report', heldoutDir, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('href="../heldout/results.json"');
    expect(checkPageLinks(out, heldoutDir)).toBeGreaterThan(10);
  }, 120_000);
});

describe.skipIf(!HAS_CHROMIUM)(HAS_CHROMIUM ? 'experiment pages in headless chromium' : `experiment pages in headless chromium — SKIPPED: ${CHROMIUM} does not exist`, () => {
  it.each([['heldout', ['chart-heldout', 'chart-full-split']], ['ablation', ['chart-ablation', 'chart-ablation-drop']]] as const)('%s page renders: script ran, SVG charts in the DOM, a screenshot that is not blank', async (kind, charts) => {
    const file = path.join(root, kind, 'report.html');
    const dom = await chromium(['--dump-dom', pathToFileURL(file).href], path.join(root, `profile-dom-${kind}`));
    expect(dom).toMatch(/<html lang="en" class="js">/);
    expect(dom).toContain('SIMULATED TARGET');
    for (const id of charts) expect(dom).toMatch(new RegExp(`<figure id="${id}"[^>]*><svg[^>]*>.*?<path`, 's'));
    const shot = path.join(root, `${kind}.png`);
    await chromium(['--window-size=1280,1600', `--screenshot=${shot}`, pathToFileURL(file).href], path.join(root, `profile-shot-${kind}`));
    const image = pngDistinctColors(readFileSync(shot));
    expect(image.width).toBe(1280);
    // A blank page has one colour; the page's text, badges, bars and tables give many.
    expect(image.colors).toBeGreaterThan(50);
  }, 180_000);
});

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { MainArtifact } from '../../src/experiments/main-table/main-summary.js';
import type { TransferArtifact } from '../../src/experiments/transfer/transfer-summary.js';
import { formatPoints } from '../../src/report/format-numbers.js';
import { heatColor } from '../../src/report/experiment/heat-color.js';
import { mainPct, mainSigned } from '../../src/report/experiment/main-page.js';
import { formatPairedSummary, formatSeedSpread } from '../../src/statistics/index.js';
import { runCli } from './cli-helpers.js';
import { pngColorCount, pngDistinctColors } from './png-colors.js';
import { checkPageLinks, chromium, CHROMIUM, HAS_CHROMIUM, pageCell, pageRow, pageText } from './report-page-helpers.js';

/**
 * `experiment transfer` and `experiment main` are run offline on small slices (simulated targets, the
 * symbolic engineer, the real sandbox) by the real CLI, then `harness-r1 report` writes their pages. The
 * tests read every figure of transfer.json / main.json back out of the page, follow every link into the
 * run directory, and look for the heatmap's colours in a chromium screenshot.
 */
const root = mkdtempSync(path.join(tmpdir(), 'harness-report-matrix-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const transferDir = path.join(root, 'transfer');
const mainDir = path.join(root, 'main');

let transfer: TransferArtifact;
let main: MainArtifact;

beforeAll(async () => {
  const t = await runCli(['experiment', 'transfer', '--bench', 'dbbench,webshop', '--tasks', '0:6', '--batch-size', '3', '--targets', 'sim:any?seed=1,sim:any?seed=2', '--resamples', '300', '--out', transferDir, '--json']);
  expect(t.code, t.stderr).toBe(0);
  transfer = JSON.parse(t.stdout) as TransferArtifact;
  const m = await runCli(['experiment', 'main', '--benches', 'webshop,alfworld,dbbench', '--tasks', '0:4', '--batch-size', '2', '--targets', 'sim:any?seed=3', '--strategies', 'react,reflection', '--hook-timeout-ms', '1000', '--resamples', '300', '--out', mainDir, '--json']);
  expect(m.code, m.stderr).toBe(0);
  main = JSON.parse(m.stdout) as MainArtifact;
  for (const dir of [transferDir, mainDir]) {
    const r = await runCli(['report', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(path.join(dir, 'report.html'));
    expect(r.stdout).toMatch(/SIMULATED TARGET, SYMBOLIC ENGINEER/);
  }
}, 900_000);

describe('harness-r1 report on transfer and main experiment run directories', () => {
  it('transfer page: every cell of the heatmap carries transfer.json\'s delta, counts and paired statistics; averages, directions, dropped tasks, links', () => {
    const file = path.join(transferDir, 'report.html');
    const page = readFileSync(file, 'utf8');
    expect(page).toContain('data-experiment="transfer"');
    expect(page).toContain('data-simulated-target="true" data-symbolic-engineer="true"');
    expect(page).toContain('SIMULATED TARGET — every episode');
    expect(page).toContain('SYMBOLIC ENGINEER — the patches');
    const maxAbs = Math.max(...transfer.cells.map((c) => Math.abs(c.counts.paired.delta)));
    for (const t of transfer.targets) {
      const tr = pageRow(page, 'data-target', t.spec);
      for (const b of transfer.benches) {
        const c = transfer.cells.find((x) => x.target === t.spec && x.bench === b.name)!;
        const k = c.counts;
        expect(pageCell(tr, `data-bench="${b.name}"`)).toBe(`${formatPoints(k.paired.delta)} ${k.baselinePass}→${k.patchedPass}/${k.tasks} ${formatPairedSummary(k.paired)}`);
        expect(tr).toMatch(new RegExp(`data-bench="${b.name}" data-cell="delta" data-direction="${c.direction}" style="background:${heatColor(k.paired.delta, maxAbs)};`));
        // Every batch's patch and rerun behind the cell is linked.
        for (const batch of c.batches) {
          const patch = `${c.dir}/batches/${batch.tag}/patch.json`;
          if (existsSync(path.join(transferDir, patch))) expect(page).toContain(`href="${patch}"`);
        }
        expect(page).toContain(`href="${c.dir}/baseline/report.html#task-`);
      }
      expect(pageCell(tr, 'data-cell="avg"')).toBe(formatSeedSpread(transfer.byTarget.find((x) => x.target === t.spec)!.deltaRate));
    }
    const avg = pageRow(page, 'data-target', 'avg');
    for (const b of transfer.byBench) expect(pageCell(avg, `data-cell="avg-${b.bench}"`)).toBe(formatSeedSpread(b.deltaRate));
    expect(pageCell(avg, 'data-cell="avg"')).toBe(formatSeedSpread(transfer.overall.deltaRate));
    const o = transfer.overall;
    expect(page).toContain(`data-metric="directions">${o.improved} / ${o.unchanged} / ${o.regressed}<`);
    expect(page).toContain(`data-metric="average">${formatSeedSpread(o.deltaRate)}<`);
    // dev #5 of dbbench cannot be set up: named as dropped.
    expect(transfer.excludedTasks.map((x) => `${x.bench}#${x.task}`)).toContain('dbbench#5');
    for (const x of transfer.excludedTasks) expect(pageText(page)).toContain(`${x.bench} task ${x.task} (${x.where})`);
    const cost = pageRow(page, 'data-role', 'target');
    expect(pageCell(cost, 'data-cell="calls"')).toBe(transfer.cost.target.modelCalls.toLocaleString('en-US'));
    expect(pageCell(pageRow(page, 'data-role', 'engineer'), 'data-cell="calls"')).toBe('0');
    expect(checkPageLinks(file)).toBeGreaterThan(transfer.cells.length * 4);
    expect(page).not.toMatch(/<link|<iframe|https?:\/\/(?!www\.w3\.org)/);
    // Played without a strategy: no success@2 in the artifact or on the page.
    expect(transfer.cells.some((c) => c.successAt2 !== undefined)).toBe(false);
    expect(page).not.toContain('success@2');
    expect(page).not.toContain('data-metric="strategy"');
  });

  it('main page: Table 1 cells equal main.json (score, families, success, Avg.) with paired statistics; success@2 apart; every row\'s runs linked', () => {
    const file = path.join(mainDir, 'report.html');
    const page = readFileSync(file, 'utf8');
    expect(page).toContain('data-experiment="main"');
    expect(page).toContain('data-simulated-target="true" data-symbolic-engineer="true"');
    expect(pageText(page)).toContain('WebShop Score WebShop Succ.');
    expect(main.rows.map((r) => r.row)).toEqual(['default', 'react', 'reflection', 'e1']);
    for (const r of main.rows) {
      const tr = pageRow(page, 'data-row', `${r.target}|${r.row}`);
      expect(tr).toContain('SIMULATED');
      for (const c of r.cells) {
        const v = c.vsDefault;
        const success = pageCell(tr, `data-cell="${c.bench}-success"`);
        expect(success).toBe(v ? `${mainPct(c.success)} (${mainSigned(v.success.delta)}) ${formatPairedSummary(v.success)}; rescued ${v.rescued}, regressed ${v.regressed}` : mainPct(c.success));
        if (c.score !== undefined) expect(pageCell(tr, `data-cell="${c.bench}-score"`)).toMatch(new RegExp(`^${mainPct(c.score)}${v ? ' \\(' : '$'}`));
        if (v?.score) expect(pageCell(tr, `data-cell="${c.bench}-score"`)).toContain(formatPairedSummary(v.score));
        for (const f of c.families) expect(pageCell(tr, `data-cell="${c.bench}-${f.family}"`)).toMatch(new RegExp(`^${mainPct(f.success)}`));
        expect(tr).toMatch(new RegExp(`href="${c.dir}/(baseline/|batches/|reruns/|)`));
      }
      expect(pageCell(tr, 'data-cell="avg"')).toBe(r.avgDelta === undefined ? mainPct(r.avg) : `${mainPct(r.avg)} (${mainSigned(r.avgDelta)})`);
      const at2 = pageCell(tr, 'data-cell="at2"');
      if (r.avgAt2 === undefined) expect(at2).toBe('—');
      else expect(at2.startsWith(`${mainPct(r.avgAt2)} `)).toBe(true);
      if (r.engineer) expect(tr).toContain('SYMBOLIC ENGINEER');
    }
    expect(main.rows.find((r) => r.row === 'reflection')!.avgAt2).toBeDefined();
    expect(pageCell(pageRow(page, 'data-role', 'target'), 'data-cell="prompt"')).toBe(main.cost.target.promptTokens.toLocaleString('en-US'));
    expect(checkPageLinks(file)).toBeGreaterThan(main.rows.length * main.benches.length);
  });
});

describe.skipIf(!HAS_CHROMIUM)(HAS_CHROMIUM ? 'transfer and main pages in headless chromium' : `transfer and main pages in headless chromium — SKIPPED: ${CHROMIUM} does not exist`, () => {
  it('transfer page: the screenshot shows each heatmap cell\'s colour', async () => {
    const file = path.join(transferDir, 'report.html');
    const shot = path.join(root, 'transfer.png');
    await chromium(['--window-size=1280,1400', `--screenshot=${shot}`, pathToFileURL(file).href], path.join(root, 'profile-transfer'));
    const png = readFileSync(shot);
    expect(pngDistinctColors(png).colors).toBeGreaterThan(50);
    const maxAbs = Math.max(...transfer.cells.map((c) => Math.abs(c.counts.paired.delta)));
    // Each cell is at least ~200 × 60 px; its colour must fill a good part of that.
    for (const c of transfer.cells) expect(pngColorCount(png, heatColor(c.counts.paired.delta, maxAbs)), `${c.target} × ${c.bench}`).toBeGreaterThan(2000);
  }, 180_000);

  it('main page renders: script ran, labels in the DOM, a screenshot that is not blank', async () => {
    const file = path.join(mainDir, 'report.html');
    const dom = await chromium(['--dump-dom', pathToFileURL(file).href], path.join(root, 'profile-main-dom'));
    expect(dom).toMatch(/<html lang="en" class="js">/);
    expect(dom).toContain('SIMULATED TARGET');
    expect(dom).toContain('SYMBOLIC ENGINEER');
    const shot = path.join(root, 'main.png');
    await chromium(['--window-size=1280,1600', `--screenshot=${shot}`, pathToFileURL(file).href], path.join(root, 'profile-main-shot'));
    expect(pngDistinctColors(readFileSync(shot)).colors).toBeGreaterThan(50);
  }, 180_000);
});

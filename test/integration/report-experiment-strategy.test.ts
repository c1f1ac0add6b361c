import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { TransferArtifact } from '../../src/experiments/transfer/transfer-summary.js';
import { PROJECT_ROOT, runCli } from './cli-helpers.js';
import { pngDistinctColors } from './png-colors.js';
import { at2CellText, checkPageLinks, chromium, CHROMIUM, HAS_CHROMIUM, pageCell, pageRow, pageText, type At2Figures } from './report-page-helpers.js';

/**
 * Pages of runs played with `--strategy reflection`: improve, held-out, ablation and transfer are run
 * offline on tiny slices (simulated targets, the symbolic engineer) by the real CLI; each page must name
 * the strategy and carry Reflection's success@2 in columns of its own whose cells equal the `--json`
 * figures, the transfer heatmap must stay success@1, every link must resolve and chromium must draw them.
 */
const root = mkdtempSync(path.join(tmpdir(), 'harness-report-strategy-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const dataDir = process.env.HARNESS_DATA_DIR ?? path.join(PROJECT_ROOT, '..', 'shared', 'data');
const patch = path.join(dataDir, 'patches', 'heldout_generalization', 'harness-r1', 'seed20260721', 'webshop.json');
const dirs = { improve: path.join(root, 'improve'), heldout: path.join(root, 'heldout'), ablation: path.join(root, 'ablation'), transfer: path.join(root, 'transfer') };
const COMMON = ['--strategy', 'reflection', '--hook-timeout-ms', '1000'];
const transferArgs = ['experiment', 'transfer', '--bench', 'dbbench', '--split', 'dev', '--tasks', '0:6', '--batch-size', '3', '--targets', 'sim:dbbench?seed=1', '--resamples', '200', ...COMMON, '--out', dirs.transfer];

interface StoreAt2 extends At2Figures { label: string; dir: string }
interface Strategy<A> { name: string; reward: string; successAt2: A }
let improve: { strategy: Strategy<{ baseline: At2Figures; batches: { tag: string; baseline: At2Figures; patched: At2Figures }[] }> };
let heldout: { strategy: Strategy<StoreAt2[]>; seeds: { seed: number }[] };
let ablation: { strategy: Strategy<StoreAt2[]>; rows: { arm: string; label: string; sameAsFull: boolean; runs: string[] }[] };
let transfer: TransferArtifact & { strategy: Strategy<StoreAt2[]> };

const page = (kind: keyof typeof dirs) => readFileSync(path.join(dirs[kind], 'report.html'), 'utf8');

interface Rec { task: { index: number }; outcome: string; detail: { reflection?: { retry?: { outcome?: string } } } }
/** The final record of every task of a run store, read straight from its episodes file. */
const records = (dir: string): Map<number, Rec> => new Map(readFileSync(path.join(dir, 'episodes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Rec).map((r) => [r.task.index, r]));
/** success@2 counted here from records: a success, or a failed first episode whose second one succeeded. */
const passedAt2 = (r: Rec) => r.outcome === 'success' || r.detail.reflection?.retry?.outcome === 'success';

beforeAll(async () => {
  const i = await runCli(['improve', '--bench', 'dbbench', '--split', 'dev', '--tasks', '0:6', '--batch-size', '3', '--target', 'sim:dbbench', ...COMMON, '--run-dir', dirs.improve, '--json']);
  expect(i.code, i.stderr).toBe(0);
  improve = JSON.parse(i.stdout) as typeof improve;
  const h = await runCli(['experiment', 'heldout', '--bench', 'dbbench', '--split', 'dev', '--tasks', '0:10', '--target', 'sim:dbbench?seed=1', '--evidence', '2', '--seeds', '11', '--resamples', '200', ...COMMON, '--out', dirs.heldout, '--json']);
  expect(h.code, h.stderr).toBe(0);
  heldout = JSON.parse(h.stdout) as typeof heldout;
  const a = await runCli(['experiment', 'ablation', '--bench', 'webshop', '--tasks', '0:3', '--target', 'sim:webshop?seed=4', '--patch', patch, '--repeats', '1', '--resamples', '200', ...COMMON, '--out', dirs.ablation, '--json']);
  expect(a.code, a.stderr).toBe(0);
  ablation = JSON.parse(a.stdout) as typeof ablation;
  const t = await runCli([...transferArgs, '--json']);
  expect(t.code, t.stderr).toBe(0);
  transfer = JSON.parse(t.stdout) as typeof transfer;
  for (const dir of [dirs.heldout, dirs.ablation, dirs.transfer]) {
    const r = await runCli(['report', dir]);
    expect(r.code, r.stderr).toBe(0);
  }
}, 900_000);

describe('report pages of runs played with --strategy reflection', () => {
  it('improve page: the strategy named; per batch success@2 before and with the patch equal improve --json, apart from the success@1 columns', () => {
    const p = page('improve');
    expect(pageText(p)).toMatch(/Strategy: reflection \(the baseline and every rerun played with it; every reward and delta compares success@1/);
    expect(p).toContain('<th class="num at2" title="Reflection: the first or the second episode succeeded; not comparable with the success@1 columns">baseline success@2 — not ranked</th>');
    expect(p).toContain(`data-metric="baseline-at2">${at2CellText(improve.strategy.successAt2.baseline)}<`);
    expect(improve.strategy.successAt2.batches.length).toBe(2);
    for (const b of improve.strategy.successAt2.batches) {
      const tr = pageRow(p, 'data-batch', b.tag);
      expect(pageCell(tr, 'data-cell="baseline-at2"')).toBe(at2CellText(b.baseline));
      expect(pageCell(tr, 'data-cell="patched-at2"')).toBe(at2CellText(b.patched));
    }
    // The improve page links within itself: every #fragment names an element of the page.
    checkPageLinks(path.join(dirs.improve, 'report.html'));
    const fragments = [...p.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]!);
    expect(fragments.length).toBeGreaterThan(2);
    for (const f of fragments) expect(p, f).toContain(`id="${f}"`);
  });

  it('held-out page: baseline success@2 card and each seed\'s held-out success@2 column equal the --json strategy figures', () => {
    const p = page('heldout');
    expect(pageText(p)).toMatch(/Strategy: reflection/);
    expect(p).toContain('held-out patched success@2 — not ranked</th>');
    const at2 = heldout.strategy.successAt2;
    expect(at2[0]!.label).toBe('baseline');
    expect(p).toContain(`data-metric="baseline-at2">${at2CellText(at2[0]!)}<`);
    for (const s of heldout.seeds) {
      const mine = at2.find((x) => x.label === `seed${s.seed} held-out, with its patch`);
      const tr = pageRow(p, 'data-seed', String(s.seed));
      expect(pageCell(tr, 'data-cell="heldout-at2"')).toBe(mine ? at2CellText(mine) : '—');
      if (mine) expect(tr).toContain(`href="${mine.dir}/report.html"`);
    }
    expect(checkPageLinks(path.join(dirs.heldout, 'report.html'))).toBeGreaterThan(5);
  });

  it('ablation page: every arm\'s success@2 per repeat equals the --json strategy figures; an arm equal to full says so', () => {
    const p = page('ablation');
    expect(pageText(p)).toMatch(/Strategy: reflection \(every arm of every repeat played with it/);
    expect(p).toContain('success@2 — not ranked</th>');
    for (const row of ablation.rows) {
      const text = pageCell(pageRow(p, 'data-arm', row.arm), 'data-cell="at2"');
      if (row.sameAsFull) {
        expect(text).toBe('= full');
        continue;
      }
      const mine = ablation.strategy.successAt2.find((x) => x.label === `r1 ${row.label}`)!;
      expect(mine.dir).toBe(row.runs[0]);
      expect(text).toBe(`r1 ${at2CellText(mine)}`);
    }
    expect(checkPageLinks(path.join(dirs.ablation, 'report.html'))).toBeGreaterThan(ablation.rows.length);
  });

  it('transfer: each cell\'s success@2 (baseline and patched) in transfer.json, --json, the summary and its own page table — never in the heatmap', async () => {
    expect(transfer.targetStrategy).toBe('reflection');
    expect(transfer.strategy).toMatchObject({ name: 'reflection', reward: 'success@1' });
    const stored = JSON.parse(readFileSync(path.join(dirs.transfer, 'transfer.json'), 'utf8')) as TransferArtifact;
    const cell = transfer.cells[0]!;
    expect(stored.cells[0]!.successAt2).toEqual(cell.successAt2);
    // Counted again here from the stores: the baseline, and each batch's rerun where its patch was rerun.
    const dir = path.join(dirs.transfer, cell.dir);
    const baseline = records(path.join(dir, 'baseline'));
    const patched = new Map(baseline);
    for (const b of cell.batches) {
      const result = JSON.parse(readFileSync(path.join(dir, 'batches', b.tag, 'result.json'), 'utf8')) as { patched: { rewards: Record<string, number> } | null; rerun?: { cacheKey: string } | null };
      if (!result.patched || !result.rerun) continue;
      for (const [t, r] of records(path.join(dir, 'reruns', result.rerun.cacheKey))) if (result.patched.rewards[String(t)] !== undefined) patched.set(t, r);
    }
    const tasks = [...baseline.keys()].filter((t) => !transfer.excludedTasks.some((x) => x.task === t));
    const at2 = cell.successAt2!;
    expect(at2.baseline.tasks).toBe(cell.counts.tasks);
    expect(at2.baseline.success1).toBe(cell.counts.baselinePass);
    expect(at2.patched.success1).toBe(cell.counts.patchedPass);
    expect(at2.baseline.success2).toBe(tasks.filter((t) => passedAt2(baseline.get(t)!)).length);
    expect(at2.patched.success2).toBe(tasks.filter((t) => passedAt2(patched.get(t)!)).length);

    const p = page('transfer');
    const heat = /<section id="heatmap">.*?<\/section>/s.exec(p)![0];
    expect(heat).not.toMatch(/success@2|at2/);
    const tr = pageRow(p, 'data-at2', `cell-dbbench-${path.basename(cell.dir)}`);
    expect(pageCell(tr, 'data-cell="baseline-at2"')).toBe(at2CellText(at2.baseline));
    expect(pageCell(tr, 'data-cell="patched-at2"')).toBe(at2CellText(at2.patched));
    expect(p).toContain('patched success@2 — not ranked</th>');
    expect(checkPageLinks(path.join(dirs.transfer, 'report.html'))).toBeGreaterThan(3);

    const text = await runCli(transferArgs);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout.split('\n')[0]).toMatch(/^strategy: reflection/);
    const pct = (s: At2Figures) => `${s.success2}/${s.tasks} (${(s.successAt2 * 100).toFixed(1)}%; ${s.rescued}/${s.retried} rescued by the second episode)`;
    expect(text.stdout).toContain(`  ${cell.target} × dbbench: success@2 baseline ${pct(at2.baseline)} → with its patches ${pct(at2.patched)}`);
    expect(text.stdout).toMatch(/reflection: success@2 per cell .*never paired or ranked/);
  }, 300_000);
});

describe.skipIf(!HAS_CHROMIUM)(HAS_CHROMIUM ? 'strategy pages in headless chromium' : `strategy pages in headless chromium — SKIPPED: ${CHROMIUM} does not exist`, () => {
  it.each(['improve', 'heldout', 'ablation', 'transfer'] as const)('%s page with success@2 columns renders and its screenshot is not blank', async (kind) => {
    const file = path.join(dirs[kind], 'report.html');
    const dom = await chromium(['--dump-dom', pathToFileURL(file).href], path.join(root, `profile-dom-${kind}`));
    expect(dom).toMatch(/<html lang="en" class="js">/);
    expect(dom).toContain('success@2 — not ranked');
    const shot = path.join(root, `${kind}.png`);
    await chromium(['--window-size=1280,1600', `--screenshot=${shot}`, pathToFileURL(file).href], path.join(root, `profile-shot-${kind}`));
    const image = pngDistinctColors(readFileSync(shot));
    expect(image.width).toBe(1280);
    expect(image.colors).toBeGreaterThan(50);
  }, 180_000);
});

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, describe, expect, it } from 'vitest';

import { PROJECT_ROOT } from '../../config/data-dir.js';
import { mcnemarExact } from '../../statistics/index.js';
import { buildHeldoutResults, heldoutSummaryMismatches, type HeldoutResultsInput } from './build-results.js';
import { fullSplitFigures, fullSplitRange } from './full-split.js';
import { summarizeHeldoutSeeds } from './heldout-paired.js';
import { formatHeldoutHeadline, poolHeldoutCells, type HeldoutCell } from './pooled-arithmetic.js';
import { formatHeldoutResults, heldoutCells, parseHeldoutResults, readHeldoutResults, writeHeldoutResults } from './results-file.js';
import type { HeldoutResultsFile } from './results-schema.js';

const dataDir = process.env.HARNESS_DATA_DIR ?? path.join(PROJECT_ROOT, '..', 'shared', 'data');
const shippedPath = path.join(dataDir, 'patches', 'heldout_generalization', 'results.json');
const hasShipped = existsSync(shippedPath);
const shippedTitle = hasShipped
  ? 'the shipped heldout_generalization/results.json (read in place)'
  : `the shipped heldout_generalization/results.json — SKIPPED: ${shippedPath} not found (set HARNESS_DATA_DIR to the data folder)`;

const smallPath = fileURLToPath(new URL('../../../test/fixtures/heldout/small-results.json', import.meta.url));

/** The file less what buildHeldoutResults computes: held_out_tasks and every editor summary. */
function cellsOnly(results: HeldoutResultsFile): HeldoutResultsInput {
  const { held_out_tasks: _computed, editors, ...rest } = results;
  const perSeed = Object.fromEntries(Object.entries(editors).map(([id, e]) => [id, { display_name: e.display_name, per_seed: e.per_seed }]));
  return { ...rest, editors: perSeed };
}

const tempDirs: string[] = [];
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!hasShipped)(shippedTitle, () => {
  const text = hasShipped ? readFileSync(shippedPath, 'utf8') : '';
  const results = hasShipped ? readHeldoutResults(shippedPath) : (undefined as unknown as HeldoutResultsFile);
  const pool = (id: string) => poolHeldoutCells(heldoutCells(results, id));

  it('reads into the typed shape and formats back to the same bytes', () => {
    expect(Object.keys(results.editors)).toEqual(['harness-r1', 'qwen3.5-397b', 'deepseek-v4-pro']);
    expect(results.held_out_tasks).toEqual({ webshop: 490, alfworld: 490, dbbench: 290, pooled: 1270 });
    expect(formatHeldoutResults(results)).toBe(text);
  });

  it('gives the published pooled figures from the per-seed counts', () => {
    const lines = Object.entries(results.editors).map(([id, e]) => formatHeldoutHeadline(e.display_name.replace(/ \(RL, iter143\)$/, ''), pool(id)));
    expect(lines).toEqual([
      'Harness-R1: +8.9 ± 1.5 pp over 1,270 tasks; valid 9/9',
      'Qwen3.5-397B: −4.3 ± 2.5 pp over 1,270 tasks; valid 8/9',
      'DeepSeek-V4-Pro: −0.4 ± 3.6 pp over 1,270 tasks; valid 6/9',
    ]);
    const h = pool('harness-r1');
    expect(h.perSeed.map((s) => [s.tasks, s.baselinePass, s.patchedPass, s.deltaPass])).toEqual([
      [1270, 550, 656, 106], [1270, 550, 685, 135], [1270, 549, 648, 99],
    ]);
    expect(h.deltaRate.mean * 100).toBeCloseTo(8.9239, 4);
    expect(h.deltaRate.sd! * 100).toBeCloseTo(1.5030, 4);
    expect(pool('qwen3.5-397b').deltaPass.values).toEqual([-53, -88, -24]);
    expect(pool('deepseek-v4-pro').deltaPass.values).toEqual([-28, -35, 47]);
  });

  it('scores the four rejected patches as no intervention', () => {
    const invalid = Object.keys(results.editors).flatMap((id) => pool(id).cells.filter((c) => !c.valid).map((c) => `${id} ${c.seed} ${c.bench} Δ${c.deltaPass}`));
    expect(invalid).toEqual(['qwen3.5-397b 20260720 alfworld Δ0', 'deepseek-v4-pro 20260720 alfworld Δ0', 'deepseek-v4-pro 20260721 dbbench Δ0', 'deepseek-v4-pro 20260722 alfworld Δ0']);
  });

  it('stores exactly the summaries its cells give, and rebuilding them from the cells gives the same bytes', () => {
    expect(heldoutSummaryMismatches(results)).toEqual([]);
    expect(formatHeldoutResults(buildHeldoutResults(cellsOnly(results)))).toBe(text);
  });

  it('carries no evidence outcomes, so the full-split figure is only bounded: Harness-R1 between +8.7 and +11.0 pp over 1,300 tasks', () => {
    const editor = results.editors['harness-r1']!;
    expect(Object.keys(editor.per_seed['20260720']!.webshop!)).not.toContain('evidence');
    const { low, high } = fullSplitRange(pool('harness-r1'), results.evidence_per_benchmark);
    expect(low.perSeed.map((s) => s.tasks)).toEqual([1300, 1300, 1300]);
    expect((low.deltaRate.mean * 100).toFixed(2)).toBe('8.72');
    expect((high.deltaRate.mean * 100).toFixed(2)).toBe('11.03');
    // A rejected patch rescues no evidence task either: DeepSeek-V4-Pro's upper end gains 20, 20 and 20 passes (2 valid of 3 per seed).
    const d = fullSplitRange(pool('deepseek-v4-pro'), 10);
    expect(d.high.perSeed.map((s) => s.deltaPass - d.low.perSeed.find((l) => l.seed === s.seed)!.deltaPass)).toEqual([20, 20, 20]);
  });

  it('gives each seed a paired interval and the exact McNemar test on its counts', () => {
    const [first] = summarizeHeldoutSeeds(pool('harness-r1'), { resamples: 400 });
    expect(first!.seed).toBe(20260720);
    expect(first!.perBench[0]!.summary.mcnemar).toEqual(mcnemarExact(50, 2));
    expect(first!.pooled.mcnemar).toEqual(mcnemarExact(50 + 102 + 22, 2 + 59 + 7));
    expect(first!.pooled.delta).toBeCloseTo(106 / 1270, 15);
    expect(first!.pooled.ci.low).toBeGreaterThan(0);
  });
});

describe('a hand-written results file', () => {
  const text = readFileSync(smallPath, 'utf8');
  const results = readHeldoutResults(smallPath);
  const pool = poolHeldoutCells(heldoutCells(results, 'toy'));

  it('round-trips byte for byte, keeping the seeds in the listed (non-numeric) order', () => {
    expect(results.seeds).toEqual([12, 3]);
    expect(heldoutCells(results, 'toy').map((c) => c.seed)).toEqual([12, 12, 3, 3]);
    expect(formatHeldoutResults(results)).toBe(text);
  });

  it('its hand-computed summaries are what the arithmetic gives', () => {
    expect(heldoutSummaryMismatches(results)).toEqual([]);
    expect(formatHeldoutResults(buildHeldoutResults(cellsOnly(results)))).toBe(text);
    expect(formatHeldoutHeadline('Toy', pool)).toBe('Toy: +8.3 ± 2.4 pp over 30 tasks; valid 3/4');
    expect(pool.perBench.map((b) => [b.bench, b.valid, b.deltaPassPerSeed])).toEqual([['alfworld', 1, [3, 0]], ['dbbench', 2, [-1, 3]]]);
  });

  it('finds a wrong stored summary', () => {
    const edited = structuredClone(results);
    edited.editors.toy!.pooled_held_out.delta_pass_rate_pp_mean = 8.34;
    expect(heldoutSummaryMismatches(edited)).toEqual(['editors.toy.pooled_held_out.delta_pass_rate_pp_mean: stored 8.34, computed 8.33']);
  });

  it('computes the full-split figure from evidence outcomes, counting none for the rejected patch', () => {
    const full = fullSplitFigures(pool, [
      { seed: 12, bench: 'alfworld', tasks: 2, baselinePass: 0, patchedPass: 1 },
      { seed: 12, bench: 'dbbench', tasks: 2, baselinePass: 0, patchedPass: 2 },
      { seed: 3, bench: 'alfworld', tasks: 2, baselinePass: 0, patchedPass: 2 },
      { seed: 3, bench: 'dbbench', tasks: 2, baselinePass: 0, patchedPass: 1 },
    ]);
    expect(full.perSeed).toEqual([
      { seed: 12, tasks: 34, baselinePass: 13, patchedPass: 18, deltaPass: 5, deltaRate: 5 / 34 },
      { seed: 3, tasks: 34, baselinePass: 14, patchedPass: 18, deltaPass: 4, deltaRate: 4 / 34 },
    ]);
    expect(() => fullSplitFigures(pool, [])).toThrow(/No evidence outcomes for seed 12, alfworld/);
    const { low, high } = fullSplitRange(pool, 2);
    expect([low.deltaPass.values, high.deltaPass.values]).toEqual([[2, 3], [6, 5]]);
  });

  it('writes whole files that read back, and refuses inconsistent counts without leaving a file', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'heldout-results-'));
    tempDirs.push(dir);
    const out = path.join(dir, 'results.json');
    writeHeldoutResults(out, results);
    expect(readFileSync(out, 'utf8')).toBe(text);
    expect(readHeldoutResults(out)).toEqual(results);

    const broken = structuredClone(results);
    broken.editors.toy!.per_seed['12']!.dbbench!.held_out.patched_pass = 5;
    const other = path.join(dir, 'broken.json');
    expect(() => writeHeldoutResults(other, broken)).toThrow(/delta_pass -1 is not patched_pass − baseline_pass \(0\)/);
    expect(readdirSync(dir)).toEqual(['results.json']);
  });
});

describe('parseHeldoutResults rejects what does not add up, naming every problem', () => {
  const base = JSON.parse(readFileSync(smallPath, 'utf8')) as HeldoutResultsFile;
  const edit = (change: (r: HeldoutResultsFile) => void): unknown => {
    const copy = structuredClone(base);
    change(copy);
    return copy;
  };
  const cases: [string, unknown, RegExp][] = [
    ['an unknown key', edit((r) => Object.assign(r.editors.toy!.per_seed['3']!.dbbench!, { extra: 1 })), /Unrecognized key: "extra"/],
    ['a count of the wrong type', edit((r) => Object.assign(r.editors.toy!.per_seed['3']!.dbbench!.held_out, { tasks: '10' })), /per_seed\.3\.dbbench\.held_out\.tasks/],
    ['a rejected patch with a delta', edit((r) => Object.assign(r.editors.toy!.per_seed['3']!.alfworld!.held_out, { patched_pass: 9, delta_pass: 1, rescued_failures: 1 })), /an invalid patch is no intervention/],
    ['rescued − regressed ≠ delta', edit((r) => Object.assign(r.editors.toy!.per_seed['12']!.alfworld!.held_out, { rescued_failures: 5 })), /rescued − regressed \(4\) is not delta_pass 3/],
    ['a missing seed', edit((r) => delete r.editors.toy!.per_seed['3']), /editors\.toy\.per_seed: expected keys 12, 3; missing 3/],
    ['a wrong pooled task count', edit((r) => (r.held_out_tasks.pooled = 31)), /held_out_tasks\.pooled: 31 is not the sum over benchmarks \(30\)/],
    ['too few evidence ids', edit((r) => r.evidence_task_ids['12']!.alfworld!.pop()), /1 ids, expected evidence_per_benchmark = 2/],
    ['a cell task count off the split', edit((r) => Object.assign(r.editors.toy!.per_seed['12']!.dbbench!.held_out, { tasks: 11 })), /11 tasks, held_out_tasks\.dbbench says 10/],
  ];
  for (const [what, json, message] of cases) {
    it(what, () => {
      expect(() => parseHeldoutResults(json, 'edited.json')).toThrow(expect.objectContaining({ code: 'config_error', message: expect.stringMatching(message) }));
    });
  }

  it('names a missing or non-JSON file', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'heldout-results-'));
    tempDirs.push(dir);
    expect(() => readHeldoutResults(path.join(dir, 'none.json'))).toThrow(/Held-out results file not found/);
    writeFileSync(path.join(dir, 'bad.json'), '{"protocol": ');
    expect(() => readHeldoutResults(path.join(dir, 'bad.json'))).toThrow(/bad\.json is not valid JSON/);
  });
});

describe('poolHeldoutCells', () => {
  const cell = (seed: number, bench: string, over: Partial<HeldoutCell> = {}): HeldoutCell => ({
    seed, bench, tasks: 10, baselinePass: 4, patchedPass: 6, rescued: 3, regressed: 1, valid: true, ...over,
  });

  it('scores an invalid cell as Δ 0 whatever its recorded patched count', () => {
    const pool = poolHeldoutCells([cell(1, 'a'), cell(1, 'b', { valid: false, patchedPass: 9, rescued: 5, regressed: 0 })]);
    expect(pool.perSeed[0]).toMatchObject({ tasks: 20, baselinePass: 8, patchedPass: 10, deltaPass: 2, rescued: 3, regressed: 1, valid: 1 });
    expect(pool.deltaRate.sd).toBeNull();
  });

  it('needs every (seed, benchmark) once, a constant task count per benchmark, and consistent counts', () => {
    expect(() => poolHeldoutCells([])).toThrow(/at least one/);
    expect(() => poolHeldoutCells([cell(1, 'a'), cell(1, 'a')])).toThrow(/seed 1, a appears twice/);
    expect(() => poolHeldoutCells([cell(1, 'a'), cell(2, 'b')])).toThrow(/seed 2, a is missing: every seed needs every benchmark \(a, b\)/);
    expect(() => poolHeldoutCells([cell(1, 'a'), cell(2, 'a', { tasks: 11 })])).toThrow(/a has 10 held-out tasks in seed 1 but 11 in seed 2/);
    expect(() => poolHeldoutCells([cell(1, 'a', { rescued: 4 })])).toThrow(/patched − baseline \(2\) is not rescued − regressed \(3\)/);
  });
});

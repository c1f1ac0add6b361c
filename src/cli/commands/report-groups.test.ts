import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';

import { afterAll, describe, expect, it } from 'vitest';

import type { EvalStatus } from '../../episode/eval-status.js';
import { groupStats } from '../../training/groups/group-stats.js';
import { SAMPLE_GROUP_VERSION, type SampleGroup } from '../../training/groups/sample-group.js';
import { rewardDistribution } from '../../report/render-groups.js';
import { reportCommand } from './report.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'report-groups-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function group(batchTag: string, samples: [number, EvalStatus, boolean][]): SampleGroup {
  const rewards = samples.map(([r]) => r);
  const statuses: Partial<Record<EvalStatus, number>> = {};
  for (const [, s] of samples) statuses[s] = (statuses[s] ?? 0) + 1;
  return {
    schemaVersion: SAMPLE_GROUP_VERSION, benchmark: 'dbbench', batchTag, k: samples.length, sampling: { temperature: 0.7, topP: 0.95, seed: 0 },
    engineerSymbolic: true, targetSimulated: true,
    samples: samples.map(([reward, status, validPatch], sample) => ({ sample, engineer: 'symbolic', status, validPatch, reward, patchSha256: null, rerun: null, rejection: null, notes: [] })),
    statuses, validRate: samples.filter(([, , v]) => v).length / samples.length, distinctPatches: 2, ...groupStats(rewards),
  };
}

function writeGroup(dir: string, g: SampleGroup): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'group.json'), JSON.stringify(g));
}

describe('report of a folder of GRPO groups', () => {
  it('shows each group\'s reward distribution, mean, std, valid rate and statuses, and the zero-variance share', async () => {
    const folder = path.join(root, 'export', 'groups');
    writeGroup(path.join(folder, 'batch_000'), group('batch_000', [[0, 'invalid_patch_treated_as_no_patch', false], [0.5, 'scored', true], [0.5, 'scored', true], [1, 'scored', true]]));
    writeGroup(path.join(folder, 'batch_001'), group('batch_001', [[0, 'inert', true], [0, 'inert', true], [0, 'inert', true], [0, 'inert', true]]));
    const out = new PassThrough();
    let printed = '';
    out.on('data', (d: Buffer) => (printed += d.toString()));
    const result = await reportCommand({ run: folder }, out);
    expect(result.file).toBe(path.join(folder, 'report.html'));
    expect(printed).toContain('(2 GRPO group(s), 1 zero-variance)');
    const page = readFileSync(result.file, 'utf8');
    expect(page).toContain('data-report-kind="groups"');
    expect(page).toContain('data-provenance="simulated-target"');
    expect(page).toContain('<div class="value" data-metric="zero-variance">1 (50.0%)</div>');
    // 7 valid patches among 8 samples.
    expect(page).toContain('<div class="value" data-metric="valid-rate">87.5%</div>');
    const first = page.slice(page.indexOf('data-group="batch_000/group.json"'), page.indexOf('data-group="batch_001/group.json"'));
    expect(first).toContain('<td data-metric="distribution">0 ×1, 0.500 ×2, 1 ×1</td>');
    expect(first).toContain('<td data-metric="mean">0.500</td>');
    // Population std of 0, 0.5, 0.5, 1.
    expect(first).toContain('<td data-metric="std">0.354</td>');
    expect(first).toContain('<td data-metric="zero-variance">no</td>');
    expect(first).toContain('<td data-metric="valid-rate">75.0%</td>');
    expect(first).toMatch(/invalid_patch_treated_as_no_patch 1<\/span> <span[^>]*>scored 3<\/span>/);
    const second = page.slice(page.indexOf('data-group="batch_001/group.json"'));
    expect(second).toContain('<td data-metric="zero-variance">yes</td>');
    expect(second).toContain('<td data-metric="std">0.000</td>');
    expect(page).toContain('Statuses over all samples: inert 4, invalid_patch_treated_as_no_patch 1, scored 3.');

    // The export folder above finds the same groups one level further down.
    const again = await reportCommand({ run: path.join(root, 'export'), out: path.join(root, 'again.html') }, new PassThrough());
    expect(readFileSync(again.file, 'utf8')).toContain('data-group="groups/batch_001/group.json"');
  });

  it('refuses a group file of another schema, naming it', async () => {
    const folder = path.join(root, 'bad');
    mkdirSync(path.join(folder, 'g'), { recursive: true });
    writeFileSync(path.join(folder, 'g', 'group.json'), JSON.stringify({ schemaVersion: 'other' }));
    await expect(reportCommand({ run: folder }, new PassThrough())).rejects.toThrow(/g\/group\.json: not a sample-group result/);
  });

  it('lists each reward with its count, in reward order', () => {
    expect(rewardDistribution([1, 0, 0.25, 0, 1])).toBe('0 ×2, 0.250 ×1, 1 ×2');
  });
});

/**
 * Exact replay must not change results: `improve` with `--replay exact` and with `--replay off` leaves
 * byte-identical episode records (baseline and every rerun) and the same batch results, on each benchmark's
 * simulated target; only the count of replayed turns differs. Simulated targets and the symbolic engineer.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { runCli } from './cli-helpers.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'harness-replay-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const digest = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** Every episodes.jsonl of the run (baseline and reruns), by its path in the run. */
function episodeDigests(runDir: string): Record<string, string> {
  const out: Record<string, string> = { baseline: digest(path.join(runDir, 'baseline', 'episodes.jsonl')) };
  const reruns = path.join(runDir, 'reruns');
  if (existsSync(reruns)) for (const key of readdirSync(reruns)) out[`reruns/${key}`] = digest(path.join(reruns, key, 'episodes.jsonl'));
  return out;
}

interface Summary {
  summary: { batches: unknown[]; totals: { rerunTurns: { turns: number; replayed: number } } & Record<string, unknown> };
}

async function improve(bench: string, replay: 'exact' | 'off') {
  const runDir = path.join(root, `${bench}-${replay}`);
  const result = await runCli(['improve', '--bench', bench, '--tasks', '0:8', '--batch-size', '4', '--target', `sim:${bench}`, '--engineer', 'symbolic', '--replay', replay, '--run-dir', runDir, '--json']);
  expect(result.code, result.stderr).toBe(0);
  return { runDir, json: JSON.parse(result.stdout) as Summary };
}

describe('exact replay leaves the same records as calling the target', () => {
  it.each(['dbbench', 'alfworld', 'webshop'])('%s', async (bench) => {
    const on = await improve(bench, 'exact');
    const off = await improve(bench, 'off');
    const digests = episodeDigests(on.runDir);
    expect(Object.keys(digests).length).toBeGreaterThan(1);
    expect(digests).toEqual(episodeDigests(off.runDir));
    expect(on.json.summary.batches).toEqual(off.json.summary.batches);
    const { rerunTurns: turnsOn, ...totalsOn } = on.json.summary.totals;
    const { rerunTurns: turnsOff, ...totalsOff } = off.json.summary.totals;
    expect(totalsOn).toEqual(totalsOff);
    expect(turnsOff.replayed).toBe(0);
    expect(turnsOn.turns).toBe(turnsOff.turns);
    expect(turnsOn.replayed).toBeLessThanOrEqual(turnsOn.turns);
    process.stdout.write(`${bench}: ${turnsOn.replayed} of ${turnsOn.turns} rerun model turns replayed\n`);
  }, 400_000);
});

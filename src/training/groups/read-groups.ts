/**
 * The `group.json` files of `sample-group` under a folder (the folder itself, its sub-folders, and
 * `groups/<batch_tag>/` of an `export rl` folder), checked and summarised for the report: per group its
 * rewards, mean, std, valid rate and statuses; over the set the share of zero-variance groups.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import { ConfigError } from '../../episode/index.js';
import { groupStats, summarizeGroups } from './group-stats.js';
import { SAMPLE_GROUP_VERSION, type SampleGroup } from './sample-group.js';

export const GROUP_FILE = 'group.json';

/** Folders searched below the given one (depth 3 covers `<export>/groups/<tag>/group.json`). */
const MAX_DEPTH = 3;

/** The `group.json` files under `dir`, as paths relative to it, in name order. */
export function findGroupFiles(dir: string): string[] {
  const found: string[] = [];
  const walk = (rel: string, depth: number) => {
    const abs = path.join(dir, rel);
    if (existsSync(path.join(abs, GROUP_FILE))) found.push(path.join(rel, GROUP_FILE));
    if (depth === MAX_DEPTH) return;
    for (const name of readdirSync(abs).sort()) {
      if (name.startsWith('.')) continue;
      const child = path.join(rel, name);
      if (statSync(path.join(dir, child)).isDirectory()) walk(child, depth + 1);
    }
  };
  if (existsSync(dir) && statSync(dir).isDirectory()) walk('', 0);
  return found;
}

/** One group as the report shows it. */
export interface GroupView {
  file: string;
  benchmark: string;
  batchTag: string;
  k: number;
  rewards: number[];
  mean: number;
  std: number;
  min: number;
  max: number;
  zeroVariance: boolean;
  validRate: number;
  distinctPatches: number;
  statuses: Record<string, number>;
  sampling: { temperature: number; topP: number; seed: number };
}

/** A set of groups as the report shows it. */
export interface GroupSetView {
  name: string;
  groups: GroupView[];
  zeroVarianceGroups: number;
  zeroVarianceShare: number;
  /** Valid patches over all samples of all groups. */
  validRate: number;
  samples: number;
  statuses: Record<string, number>;
  byBenchmark: Record<string, { groups: number; zeroVariance: number; meanReward: number }>;
  engineerSymbolic: boolean;
  targetSimulated: boolean;
}

function readGroup(dir: string, rel: string): SampleGroup {
  const file = path.join(dir, rel);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (cause) {
    throw new ConfigError({ message: `${rel}: not a readable JSON file (${cause instanceof Error ? cause.message : String(cause)}).`, field: 'run', cause });
  }
  const g = value as Partial<SampleGroup>;
  if (typeof value !== 'object' || value === null || g.schemaVersion !== SAMPLE_GROUP_VERSION) {
    throw new ConfigError({ message: `${rel}: not a sample-group result of schema ${SAMPLE_GROUP_VERSION}.`, field: 'run' });
  }
  if (!Array.isArray(g.samples) || !g.samples.every((s) => typeof s?.reward === 'number' && typeof s.status === 'string' && typeof s.validPatch === 'boolean')) {
    throw new ConfigError({ message: `${rel}: samples must each have a reward, a status and validPatch.`, field: 'run' });
  }
  return g as SampleGroup;
}

/** The groups under `dir`, with their statistics recomputed from the stored sample rewards. */
export function loadGroupSet(dir: string): GroupSetView {
  const files = findGroupFiles(dir);
  if (files.length === 0) throw new ConfigError({ message: `${dir} holds no ${GROUP_FILE} (sample-group results).`, field: 'run' });
  const raw = files.map((f) => readGroup(dir, f));
  const groups: GroupView[] = raw.map((g, i) => {
    const file = files[i]!;
    const rewards = g.samples.map((s) => s.reward);
    const s = groupStats(rewards);
    const statuses: Record<string, number> = {};
    for (const sample of g.samples) statuses[sample.status] = (statuses[sample.status] ?? 0) + 1;
    return {
      file, benchmark: g.benchmark, batchTag: g.batchTag, k: g.samples.length, rewards, mean: s.mean, std: s.std,
      min: rewards.length === 0 ? 0 : Math.min(...rewards), max: rewards.length === 0 ? 0 : Math.max(...rewards), zeroVariance: s.zeroVariance,
      validRate: g.samples.length === 0 ? 0 : g.samples.filter((x) => x.validPatch).length / g.samples.length,
      distinctPatches: g.distinctPatches, statuses, sampling: g.sampling,
    };
  });
  const summary = summarizeGroups(groups);
  const samples = groups.reduce((a, g) => a + g.k, 0);
  const statuses: Record<string, number> = {};
  for (const g of groups) for (const [k, n] of Object.entries(g.statuses)) statuses[k] = (statuses[k] ?? 0) + n;
  const byBenchmark: GroupSetView['byBenchmark'] = {};
  for (const g of groups) {
    const b = (byBenchmark[g.benchmark] ??= { groups: 0, zeroVariance: 0, meanReward: 0 });
    b.meanReward = (b.meanReward * b.groups + g.mean) / (b.groups + 1);
    b.groups++;
    if (g.zeroVariance) b.zeroVariance++;
  }
  return {
    name: path.basename(path.resolve(dir)),
    groups,
    zeroVarianceGroups: summary.zeroVarianceGroups,
    zeroVarianceShare: summary.zeroVarianceShare,
    validRate: samples === 0 ? 0 : groups.reduce((a, g) => a + g.validRate * g.k, 0) / samples,
    samples,
    statuses,
    byBenchmark,
    engineerSymbolic: raw.some((g) => g.engineerSymbolic),
    targetSimulated: raw.some((g) => g.targetSimulated),
  };
}

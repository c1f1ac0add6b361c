/**
 * Options of `harness-r1 experiment …`, as zod schemas (see options.ts for the shared conventions: one
 * validated object per command, errors that name the flag).
 */
import { z } from 'zod';

import { ConfigError } from '../episode/index.js';
import { MAX_BOOTSTRAP_RESAMPLES } from '../statistics/index.js';
import { choiceOption, intOption } from './options.js';
import { REPLAY_MODES } from '../models/replay-mode.js';
import { STRATEGY_NAMES, type StrategyName } from '../runtime/strategies/index.js';

/** The paper's held-out seeds. */
export const PAPER_SEEDS = [20260720, 20260721, 20260722] as const;

/** `--seeds 1,2,3`: distinct non-negative integers. */
export function seedListOption(key: string) {
  return z.union([z.string(), z.array(z.number())]).transform((value, ctx) => {
    const parts = typeof value === 'string' ? value.split(',').map((p) => p.trim()) : value.map(String);
    const seeds = parts.map((p) => (/^\d+$/.test(p) ? Number(p) : Number.NaN));
    if (seeds.length === 0 || seeds.some((s) => !Number.isSafeInteger(s)) || new Set(seeds).size !== seeds.length) {
      ctx.addIssue({ code: 'custom', message: `--${key} must be distinct non-negative integers separated by commas, got '${String(value)}'.` });
      return z.NEVER;
    }
    return seeds;
  });
}

/** What every experiment command shares with `improve`, less the benchmark and the target. */
const commonOptions = {
  split: z.string().optional(),
  tasks: z.string().optional(),
  out: z.string().optional(),
  dataDir: z.string().optional(),
  maxRounds: intOption('maxRounds', 1, 10_000).optional(),
  protocol: z.string().optional(),
  concurrency: intOption('concurrency', 1, 256).default(4),
  resamples: intOption('resamples', 1, MAX_BOOTSTRAP_RESAMPLES).default(10_000),
  json: z.boolean().optional(),
  replay: choiceOption('replay', REPLAY_MODES).optional(),
};

/**
 * A baseline target strategy the baseline and every rerun of a single-strategy experiment are played with
 * (absent: the plain target), and the wall-clock limit of one hook call in its reruns.
 */
const playOptions = {
  strategy: choiceOption('strategy', STRATEGY_NAMES).optional(),
  hookTimeoutMs: intOption('hookTimeoutMs', 1, 60_000).optional(),
};

/** One benchmark, one target. */
const experimentOptions = { ...commonOptions, ...playOptions, bench: z.string(), target: z.string() };

export const HeldoutOptionsSchema = z.object({
  ...experimentOptions,
  engineer: z.string().optional(),
  patchSource: z.string().optional(),
  evidence: intOption('evidence', 1, 100_000).default(10),
  seeds: seedListOption('seeds').default([...PAPER_SEEDS]),
});
export type HeldoutOptions = z.infer<typeof HeldoutOptionsSchema>;

export const AblationOptionsSchema = z.object({
  ...experimentOptions,
  patch: z.string().optional(),
  from: z.string().optional(),
  repeats: intOption('repeats', 1, 100).default(3),
});
export type AblationOptions = z.infer<typeof AblationOptionsSchema>;

/** `--engineer` and `--patch-source` exclude each other; one of them (default: the symbolic engineer). */
export function engineerOrSource(o: { engineer?: string | undefined; patchSource?: string | undefined }): { engineer: string } | { patchSource: string } {
  if (o.engineer !== undefined && o.patchSource !== undefined) throw new ConfigError({ message: '--engineer and --patch-source exclude each other: replayed patches need no engineer.', field: 'patchSource' });
  return o.patchSource !== undefined ? { patchSource: o.patchSource } : { engineer: o.engineer ?? 'symbolic' };
}

/** `--patch` and `--from` exclude each other; one is required. */
export function patchOrRun(o: AblationOptions): { patch: string } | { from: string } {
  if ((o.patch === undefined) === (o.from === undefined)) throw new ConfigError({ message: 'experiment ablation needs exactly one of --patch FILE or --from RUN.', field: 'patch' });
  return o.patch !== undefined ? { patch: o.patch } : { from: o.from! };
}

/**
 * A comma-separated list of SPECs: a comma starts a new SPEC only where a SPEC scheme follows, so commas
 * inside a SPEC (`sim:dbbench?faults=backticks:0.5,give_up:0.2`) stay in it.
 */
export function specListOption(key: string) {
  return z.string().transform((value, ctx) => {
    const specs = value.split(/,(?=(?:openai|sim|scripted):|symbolic(?:,|$))/).map((s) => s.trim());
    if (specs.some((s) => s === '') || new Set(specs).size !== specs.length) {
      ctx.addIssue({ code: 'custom', message: `--${key} must be distinct SPECs separated by commas, got '${value}'.` });
      return z.NEVER;
    }
    return specs;
  });
}

/** `--bench a,b`: distinct benchmark names. */
export function nameListOption(key: string) {
  return z.string().transform((value, ctx) => {
    const names = value.split(',').map((s) => s.trim());
    if (names.some((s) => s === '') || new Set(names).size !== names.length) {
      ctx.addIssue({ code: 'custom', message: `--${key} must be distinct names separated by commas, got '${value}'.` });
      return z.NEVER;
    }
    return names;
  });
}

export const TransferOptionsSchema = z.object({
  ...commonOptions,
  ...playOptions,
  bench: nameListOption('bench'),
  targets: specListOption('targets'),
  engineer: z.string().default('symbolic'),
  batchSize: intOption('batchSize', 1, 100_000).default(10),
});
export type TransferOptions = z.infer<typeof TransferOptionsSchema>;

/** `--strategies react,reflection`: distinct baseline target strategies. */
export function strategyListOption(key: string) {
  return nameListOption(key).transform((names, ctx) => {
    const unknown = names.filter((n) => !(STRATEGY_NAMES as readonly string[]).includes(n));
    if (unknown.length > 0) {
      ctx.addIssue({ code: 'custom', message: `Unknown --${key} ${unknown.map((n) => `'${n}'`).join(', ')}. Allowed: ${STRATEGY_NAMES.join(', ')}.` });
      return z.NEVER;
    }
    return names as StrategyName[];
  });
}

export const MainOptionsSchema = z.object({
  ...commonOptions,
  benches: nameListOption('benches').optional(),
  targets: specListOption('targets'),
  engineers: specListOption('engineers').default(['symbolic']),
  /** Baseline target strategies, one no-patch row each (default: none). */
  strategies: strategyListOption('strategies').optional(),
  batchSize: intOption('batchSize', 1, 100_000).default(10),
  /** Wall-clock limit of one hook call in the engineers' reruns (default: the sandbox's, 50 ms). */
  hookTimeoutMs: intOption('hookTimeoutMs', 1, 60_000).optional(),
});
export type MainOptions = z.infer<typeof MainOptionsSchema>;

import path from 'node:path';

import type { BenchmarkRegistry } from '../benchmarks/registry.js';
import { ConfigError } from '../episode/index.js';
import { buildEngineerPrompt, isEngineerPromptProtocol } from '../engineer/engineer-prompt.js';
import { PROMPT_VERSION } from '../engineer/prompt-templates.js';
import type { RewardMetric } from '../evaluation/improve/batch-reward.js';
import { decideReward } from '../evaluation/improve/decide-reward.js';
import type { SandboxPool } from '../sandbox/index.js';
import type { PreparedRow, PrepareRow } from '../serving/prepared-row.js';
import { RunStore } from '../store/run-store.js';
import { engineerInputOf } from '../training/rows/export-rl.js';
import { checkRowContext } from '../training/rows/row-context.js';
import { promptSha256 } from '../training/rows/rl-row.js';
import { benchmarkOptions, openBenchmark } from './open-environment.js';
import { resolveTarget, type ResolvedTarget } from './resolve-target.js';
import { sandboxCompiler } from './sandbox-compiler.js';

export interface RowRewardPaths {
  prepare: PrepareRow;
  /** Stops every target started for the rows. */
  close(): Promise<void>;
}

/**
 * Sets up RL rows for rewards (`sample-group` and `serve-reward`): the baseline run the row froze is read back from its
 * export folder, the engineer prompt rebuilt from it must have the row's digest, and the target, serving
 * identity and prompt version must be the row's (`checkRowContext`); then the reward path of `improve`,
 * with reruns under `rootDir`. Targets are resolved once per spec and shared by the rows.
 */
export function rowRewardPaths(o: {
  registry: BenchmarkRegistry;
  dataDir: string;
  /** The target for every row; default each row's own. */
  target?: string;
  rootDir: string;
  pool: SandboxPool;
  /** Episodes played at once within one rerun. */
  episodeConcurrency: number;
  maxInfraRetries: number;
  /** What the reruns differ in from `improve`'s defaults (e.g. a hook time limit); part of every rerun's cache key. */
  extraRerunContext?: Record<string, unknown>;
}): RowRewardPaths {
  const targets = new Map<string, Promise<ResolvedTarget>>();
  const compiler = sandboxCompiler(o.pool);
  const prepare: PrepareRow = async (entry) => {
    const { row, root } = entry;
    const m = row.metadata;
    const definition = o.registry.get(m.benchmark);
    const targetSpec = o.target ?? m.target_spec;
    if (!isEngineerPromptProtocol(m.response_protocol)) throw new ConfigError({ message: `Row ${entry.key}: the response protocol '${m.response_protocol}' is unknown.`, field: 'response_protocol' });
    const baselineDir = path.join(root, m.baseline_run);
    if (!RunStore.exists(baselineDir)) throw new ConfigError({ message: `Row ${entry.key}: its baseline run ${m.baseline_run} is missing from ${root}.`, field: 'baseline_run' });
    const store = RunStore.open(baselineDir);
    const records = store.records();
    store.close();
    const byIndex = new Map(records.map((r) => [r.task.index, r]));
    const input = engineerInputOf(definition, m.batch_tag, m.env_split, [...m.task_indices, ...m.excluded_tasks], byIndex, m.reward_threshold);
    const { prompt } = buildEngineerPrompt(input, { protocol: m.response_protocol });
    const options = benchmarkOptions(o.registry, definition, m.env_options);
    const choice = { definition, dataDir: o.dataDir, split: m.env_split, protocol: m.env_protocol, options, ...(m.env_max_rounds === null ? {} : { maxRounds: m.env_max_rounds }) };
    const probe = await openBenchmark(choice);
    await probe.environment.close();
    checkRowContext(row, { targetSpec, serving: probe.identity, promptVersion: PROMPT_VERSION, responseProtocol: m.response_protocol, promptStaticPrefixSha256: prompt.staticPrefixSha256 });
    const rebuilt = promptSha256(prompt.messages, prompt.prefill);
    if (rebuilt !== m.prompt_sha256) {
      throw new ConfigError({ message: `Row ${entry.key}: the prompt rebuilt from its baseline (sha256 ${rebuilt}) is not the row's; the baseline run or the packet code changed.`, field: 'prompt_sha256' });
    }
    let resolved = targets.get(targetSpec);
    if (!resolved) {
      resolved = resolveTarget(targetSpec, { dataDir: o.dataDir, registry: o.registry, bench: definition.name });
      targets.set(targetSpec, resolved);
    }
    const target = (await resolved).model;
    const metric = m.reward_metric as RewardMetric;
    const baseline = new Map(Object.entries(m.baseline_rewards).map(([k, v]) => [Number(k), v]));
    const evidence = { baseline, threshold: m.reward_threshold, metric };
    const prepared: PreparedRow = {
      entry, input, targetSpec, targetSimulated: target.simulated,
      batch: { tag: m.batch_tag, episodes: records.filter((r) => m.task_indices.includes(r.task.index)), evidence },
      ctx: {
        benchmark: definition, patchRules: o.registry.patchRules(), split: m.env_split, rootDir: o.rootDir,
        openEnvironment: async (patch) => (await openBenchmark(choice, patch)).environment,
        target, compiler, pool: o.pool, concurrency: o.episodeConcurrency, threshold: m.reward_threshold, metric, maxInfraRetries: o.maxInfraRetries,
        rerunContext: { target: targetSpec, bench: definition.name, split: m.env_split, ...probe.identity, threshold: m.reward_threshold, metric, ...o.extraRerunContext },
      },
      untouched: decideReward(evidence),
      baselinePass: [...baseline.values()].filter((r) => r >= m.reward_threshold).length,
    };
    return prepared;
  };
  return {
    prepare,
    close: async () => {
      for (const t of targets.values()) await (await t.catch(() => undefined))?.close();
    },
  };
}

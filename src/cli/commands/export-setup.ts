import { createHash } from 'node:crypto';

import type { Command } from 'commander';

import { resolveDataDir } from '../../config/data-dir.js';
import { ConfigError } from '../../episode/index.js';
import { benchmarkOptions, chooseProtocol, openBenchmark } from '../../app/open-environment.js';
import { DEFAULT_BATCH_SIZE } from '../../app/options.js';
import { resolveTarget } from '../../app/resolve-target.js';
import { locateSplitTasks } from '../../app/split-tasks.js';
import { buildSplits, loadSplitManifest, serializeSplitManifest, type PartitionName } from '../../task-splits/index.js';
import { benchmarkOf, protocolHelp, type CliContext } from '../cli-context.js';

/** The flags `export rl` and `export sft` share to place a split's tasks and open the frozen target. */
export interface ExportSetupFlags {
  bench: string;
  split: string;
  target: string;
  splits?: string | undefined;
  pool?: string | undefined;
  dataDir?: string | undefined;
  protocol?: string | undefined;
  maxRounds?: number | undefined;
}

/**
 * The split manifest (built from the data, or `--splits`), the partition's tasks placed in the environment,
 * the no-harness environment and the frozen target. The caller closes `opened.environment` and `target`.
 */
export async function openExportSetup(ctx: CliContext, o: ExportSetupFlags, benchReceived: Record<string, unknown>) {
  const definition = await benchmarkOf(ctx, o.bench);
  const dataDir = resolveDataDir(o.dataDir);
  if (o.splits === undefined && definition.paperSplits === undefined) throw new ConfigError({ message: `${definition.name} defines no task splits; give a split manifest with --splits.`, field: 'splits' });
  const manifest = o.splits === undefined ? buildSplits(definition.paperSplits!, { dataDir, ...(o.pool === undefined ? {} : { pool: o.pool }) }).manifest : loadSplitManifest(o.splits);
  if (manifest.benchmark !== definition.name) throw new ConfigError({ message: `--splits ${o.splits} is a ${manifest.benchmark} manifest, not ${definition.name}.`, field: 'splits' });
  const manifestSha256 = createHash('sha256').update(serializeSplitManifest(manifest)).digest('hex');
  const partition = o.split as PartitionName;
  const located = locateSplitTasks(definition, manifest.partitions[partition].tasks, dataDir);
  const options = benchmarkOptions(ctx.registry, definition, { ...located.options, ...benchReceived });
  const choice = { definition, dataDir, split: located.split, protocol: chooseProtocol(ctx.registry, definition, o.protocol), options, ...(o.maxRounds !== undefined ? { maxRounds: o.maxRounds } : {}) };
  const opened = await openBenchmark(choice);
  try {
    const target = await resolveTarget(o.target, { dataDir, registry: ctx.registry, bench: definition.name });
    return { definition, dataDir, manifest, manifestSha256, partition, located, options, choice, opened, target };
  } catch (error) {
    await opened.environment.close();
    throw error;
  }
}

/** The batching options `export rl` and `export sft` share, in their help's order. */
export function addExportBatchingOptions(command: Command): Command {
  return command
    .option('--batch-size <n>', `tasks per batch (reference ${DEFAULT_BATCH_SIZE})`)
    .option('--batches <n>', 'only the first N batches')
    .option('--splits <manifest>', 'a manifest.json written by harness-r1 splits (default: built from the data)')
    .option('--pool <file>', 'a training pool for the split builder (see harness-r1 splits --help)');
}

/** The play options `export rl` and `export sft` share (the hook time limit only where reruns run hooks), then `--config` and `--json`. */
export function addExportPlayOptions(command: Command, ctx: CliContext, o: { hookTimeout: boolean }): Command {
  command.option('--concurrency <n>', 'episodes played at once (default 4)');
  if (o.hookTimeout) command.option('--hook-timeout-ms <n>', 'wall-clock limit of one hook call in the reruns (default 50)');
  return command
    .option('--max-rounds <n>', 'rounds per episode (default: the benchmark\'s)')
    .option('--protocol <p>', `the protocol the target plays: ${protocolHelp(ctx.registry)}`)
    .option('--data-dir <dir>', 'benchmark data folder (default ../shared/data or HARNESS_DATA_DIR)')
    .option('--config <file>', 'a JSON file with the same settings (camelCase keys); flags win')
    .option('--json', 'machine-readable summary');
}

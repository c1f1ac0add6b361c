import type { Command } from 'commander';

import { ConfigError, type EpisodeRecord } from '../../episode/index.js';
import { buildFailurePacket, type FailurePacket } from '../../engineer/failure-packet.js';
import type { RunManifest } from '../../store/run-manifest.js';
import { loadRunArtifacts } from '../../run-dir/read-run.js';
import { EXIT_OK } from '../exit-codes.js';
import { parseTaskRange } from '../parse-task-range.js';
import type { CliContext } from '../cli-context.js';

export interface PacketCommandOptions {
  run: string;
  batch?: string;
  tasks?: string;
  json?: boolean;
  /** A benchmark module for runs of a benchmark that is not built in (the run records only its name). */
  bench?: string;
}

/**
 * Prints the failure packet an engineer would get for a run's no-harness episodes: a plain run (all its
 * episodes, or `--tasks`), or one batch of an improve run (`--batch`, default the first): the packet the
 * engineer saw, as stored in the batch's `packet.json` (rebuilt from the baseline for runs made before it was).
 */
export async function packetCommand(ctx: CliContext, o: PacketCommandOptions, out: NodeJS.WriteStream = process.stdout): Promise<number> {
  const artifacts = loadRunArtifacts(o.run);
  let records: EpisodeRecord[];
  let batchTag: string;
  let taskIndices: number[];
  const manifest = artifacts.kind === 'improve' ? artifacts.baseline.manifest : artifacts.run.manifest;
  if (artifacts.kind === 'improve') {
    const tags = artifacts.batches.map((b) => b.tag);
    batchTag = o.batch ?? tags[0] ?? '';
    const batch = artifacts.batches.find((b) => b.tag === batchTag);
    if (!batch) throw new ConfigError({ message: `No batch '${batchTag}' in ${o.run}.`, field: 'batch', allowed: tags });
    taskIndices = batch.result.taskIndices;
    records = artifacts.baseline.records;
  } else {
    if (o.batch !== undefined) throw new ConfigError({ message: '--batch applies to improve runs; this is a plain run (use --tasks).', field: 'batch' });
    if (artifacts.run.manifest.patch !== null) {
      throw new ConfigError({ message: `${o.run} was run with a patch; a failure packet is built from no-harness episodes.`, field: 'run' });
    }
    batchTag = 'batch_000';
    taskIndices = o.tasks ? parseTaskRange(o.tasks, Math.max(...manifest.taskIndices) + 1).filter((i) => manifest.taskIndices.includes(i)) : manifest.taskIndices;
    records = artifacts.run.records;
  }
  const stored = artifacts.kind === 'improve' ? artifacts.batches.find((b) => b.tag === batchTag)?.packet : null;
  if (stored) return printPacket(o, out, { run: o.run, batchTag, target: manifest.target, packet: stored }, manifest.target);
  const definition = await ctx.registry.resolve(o.bench ?? manifest.bench, o.bench !== undefined ? 'bench' : 'run');
  if (definition.name !== manifest.bench) throw new ConfigError({ message: `${o.run} is a ${manifest.bench} run, not ${definition.name}.`, field: 'bench' });
  const episodes = records.filter((r) => taskIndices.includes(r.task.index)).sort((a, b) => a.task.index - b.task.index);
  const packet = buildFailurePacket({ benchmark: definition.engineer, batchTag, split: manifest.split, taskIndices, episodes, passThreshold: 1 });
  return printPacket(o, out, { run: o.run, batchTag, target: manifest.target, packet }, manifest.target);
}

/** Prints a packet (its text, or everything as JSON) and says so when the episodes came from a simulated target. */
function printPacket(o: PacketCommandOptions, out: NodeJS.WriteStream, shown: { run: string; batchTag: string; target: RunManifest['target']; packet: FailurePacket }, target: RunManifest['target']): number {
  if (o.json) out.write(`${JSON.stringify(shown, null, 2)}\n`);
  else out.write(`${shown.packet.text}\n`);
  if (!o.json && target.simulated) process.stderr.write(`(episodes from a SIMULATED TARGET: ${target.label})\n`);
  return EXIT_OK;
}

export function registerPacketCommand(program: Command, ctx: CliContext): void {
  program
    .command('packet')
    .description("Print the failure packet (the engineer's evidence) built from a run's no-harness episodes.")
    .argument('<run>', 'a run directory (harness-r1 run, without --patch) or an improve run directory')
    .option('--batch <tag>', 'improve runs: which batch (default the first, batch_000)')
    .option('--tasks <range>', 'plain runs: only these task indices')
    .option('--bench <module>', 'the benchmark module of a run whose benchmark is not built in')
    .option('--json', 'the packet text with its statistics, as JSON')
    .addHelpText('after', '\nThe packet never contains ground truth: it is built from what the target saw and did, not from grader details.')
    .action(async (run: string, opts: Omit<PacketCommandOptions, 'run'>) => {
      process.exitCode = await packetCommand(ctx, { run, ...opts });
    });
}

import path from 'node:path';

import type { Command } from 'commander';
import { z } from 'zod';

import { parseWith, splitOptions } from '../../app/options.js';
import { dataDirFor, openBenchmark } from '../../app/open-environment.js';
import { ConfigError, type ToolSpec } from '../../episode/index.js';
import { loadRunArtifacts } from '../../run-dir/read-run.js';
import { EPISODE_CHOICES, isEpisodeChoice } from '../../training/agent-sft/collect-episodes.js';
import { AGENT_SFT_FILES, exportAgentSft, type AgentSftSummary, type ToolsLookup } from '../../training/agent-sft/export-agent-sft.js';
import { EXIT_OK } from '../exit-codes.js';
import { receivedOptions, type CliContext } from '../cli-context.js';

export const ExportAgentSftOptionsSchema = z.object({
  from: z.array(z.string()).min(1),
  out: z.string(),
  episodes: z.string().default('baseline'),
  minReward: z.coerce.number().default(1),
  dataDir: z.string().optional(),
  json: z.boolean().optional(),
});

/**
 * The tools a benchmark's tool-calling episodes offer, read from the benchmark itself: its default protocol
 * and options, the first task of its default split, before any hook ran. Looked up once per benchmark.
 */
function benchmarkTools(ctx: CliContext, dataDir: string | undefined): ToolsLookup {
  const cache = new Map<string, Promise<readonly ToolSpec[]>>();
  const lookup = async (bench: string): Promise<readonly ToolSpec[]> => {
    const definition = await ctx.registry.resolve(bench);
    const options = parseWith(definition.options.schema, {}) as Record<string, unknown>;
    const opened = await openBenchmark({ definition, dataDir: dataDirFor(definition, dataDir), split: definition.defaultSplit, protocol: definition.protocols[0]!, options });
    try {
      const episode = await opened.environment.openEpisode(0);
      try {
        return [...episode.tools];
      } finally {
        await episode.close();
      }
    } finally {
      await opened.environment.close();
    }
  };
  return (bench) => {
    if (!cache.has(bench)) cache.set(bench, lookup(bench));
    return cache.get(bench)!;
  };
}

/** `harness-r1 export agent-sft`: successful episodes of runs as tool-calling SFT data. */
export async function exportAgentSftCommand(ctx: CliContext, received: Record<string, unknown>, out: Pick<NodeJS.WriteStream, 'write'> = process.stdout): Promise<{ code: number; summary: AgentSftSummary }> {
  const { own } = splitOptions(ExportAgentSftOptionsSchema, receivedOptions(ctx, received, Object.keys(ExportAgentSftOptionsSchema.shape)));
  const o = parseWith(ExportAgentSftOptionsSchema, own);
  if (!isEpisodeChoice(o.episodes)) throw new ConfigError({ message: `Unknown --episodes '${o.episodes}'.`, field: 'episodes', allowed: EPISODE_CHOICES });
  const sources = o.from.map((dir) => ({ name: path.basename(path.resolve(dir)), artifacts: loadRunArtifacts(dir) }));
  const summary = await exportAgentSft({ sources, outDir: path.resolve(o.out), episodes: o.episodes, minReward: o.minReward, tools: benchmarkTools(ctx, o.dataDir) });
  out.write(o.json ? `${JSON.stringify(summary, null, 2)}\n` : renderAgentSftSummary(summary));
  return { code: EXIT_OK, summary };
}

export function renderAgentSftSummary(s: AgentSftSummary): string {
  const simulated = s.sources.some((x) => x.simulatedTarget);
  const lines = [
    `agent-SFT (${s.episodes} episodes, success = reward >= ${s.minReward}): ${s.totals.kept} demonstration(s) from ${s.totals.read} episode(s) of ${s.sources.length} run(s)${simulated ? ' — episodes of a SIMULATED target' : ''}`,
    ...Object.entries(s.byBenchmark).map(([b, c]) =>
      `  ${b}: kept ${c.kept} (no intervention ${c.keptByKind.no_intervention}, harnessed ${c.keptByKind.harnessed}); duplicates dropped ${c.duplicatesDropped}; failures skipped ${c.failures}; infrastructure failures ${c.infrastructureFailures}; other kind ${c.otherKind}${c.sharegptSkipped > 0 ? `; not in sharegpt ${c.sharegptSkipped}` : ''}`),
    ...s.files.map((f) => `  wrote ${f.file} (${f.rows} row(s), ${f.bytes} bytes)`),
    ...s.warnings.slice(0, 5).map((w) => `  warning: ${w}`),
    ...(s.warnings.length > 5 ? [`  … ${s.warnings.length - 5} more warning(s) in ${AGENT_SFT_FILES.manifest}`] : []),
  ];
  return `${lines.join('\n')}\n`;
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export function registerExportAgentSftCommand(parent: Command, ctx: CliContext): void {
  parent
    .command('agent-sft')
    .description('Agent SFT: the target\'s successful episodes from run directories, one per task, as OpenAI tool-calling messages (TRL) and LLaMA-Factory sharegpt with tools.')
    .option('--from <run...>', 'run directories: a `run` store and/or an `improve` run directory (repeatable)', collect)
    .option('--out <dir>', `export folder (required): ${Object.values(AGENT_SFT_FILES).join(', ')}`)
    .option('--episodes <kind>', 'baseline (no intervention: no patch installed; default), harnessed (a patch installed: improve reruns, run --patch) or both')
    .option('--min-reward <r>', 'an episode is a success when its reward is at least this (default 1, as the release)')
    .option('--data-dir <dir>', 'benchmark data folder, read for the tool list (default ../shared/data or HARNESS_DATA_DIR)')
    .option('--config <file>', 'a JSON file with the same settings (camelCase keys); flags win')
    .option('--json', 'machine-readable summary')
    .action(async (opts: Record<string, unknown>) => {
      process.exitCode = (await exportAgentSftCommand(ctx, opts)).code;
    });
}

import { existsSync, statSync } from 'node:fs';

import type { Command } from 'commander';

import type { AnyBenchmarkDefinition } from '../../benchmark/definition.js';
import { BenchmarkRegistry, looksLikePath } from '../../benchmarks/registry.js';
import { resolveDataDir } from '../../config/data-dir.js';
import { ConfigError } from '../../episode/index.js';
import { buildSplits, writeSplits, type CountComparison, type PaperSplits, type SplitManifest, type WrittenFile } from '../../task-splits/index.js';
import type { ConfigFile } from '../../app/options.js';
import { EXIT_OK } from '../exit-codes.js';
import { receivedOptions } from '../cli-context.js';

export interface SplitsCommandOptions {
  bench?: string;
  pool?: string;
  out?: string;
  dataDir?: string;
  json?: boolean;
}

/** The settings `splits` reads from flags or a config file. */
const SPLITS_OPTION_KEYS = ['bench', 'pool', 'out', 'dataDir', 'json'] as const;

/** The registered benchmarks that have paper splits. */
function withSplits(registry: BenchmarkRegistry): (AnyBenchmarkDefinition & { paperSplits: PaperSplits })[] {
  return registry.all().filter((d): d is AnyBenchmarkDefinition & { paperSplits: PaperSplits } => d.paperSplits !== undefined);
}

/** Builds a benchmark's task splits, writes the manifest (and the benchmark's own split files) and prints our counts against the paper's. */
export async function splitsCommand(
  o: SplitsCommandOptions,
  out: Pick<NodeJS.WriteStream, 'write'> = process.stdout,
  registry: BenchmarkRegistry = new BenchmarkRegistry(),
): Promise<number> {
  const allowed = withSplits(registry).map((d) => d.name);
  if (o.bench === undefined) throw new ConfigError({ message: 'Missing --bench.', field: 'bench', allowed });
  const definition = looksLikePath(o.bench) ? await registry.resolve(o.bench) : registry.find(o.bench);
  if (definition?.paperSplits === undefined) throw new ConfigError({ message: `Unknown benchmark '${o.bench}'.`, field: 'bench', allowed });
  if (o.out === undefined || o.out === '') throw new ConfigError({ message: 'Missing --out DIR (where manifest.json is written).', field: 'out' });
  if (existsSync(o.out) && !statSync(o.out).isDirectory()) throw new ConfigError({ message: `--out ${o.out} exists and is not a directory.`, field: 'out' });
  const dataDir = resolveDataDir(o.dataDir);
  const built = buildSplits(definition.paperSplits, { dataDir, ...(o.pool === undefined ? {} : { pool: o.pool }) });
  const manifest = built.manifest;
  const files = writeSplits(manifest, o.out, built.files);
  if (o.json) out.write(`${JSON.stringify(summaryJson(manifest, files), null, 2)}\n`);
  else out.write(renderSummary(manifest, files));
  return EXIT_OK;
}

function summaryJson(m: SplitManifest, files: readonly WrittenFile[]): unknown {
  return {
    benchmark: m.benchmark,
    procedure: m.procedure,
    pool: m.pool,
    seeds: m.seeds,
    batchSize: m.batchSize,
    counts: m.counts,
    comparison: m.comparison,
    differsFromPaper: m.comparison.filter((r) => r.paper !== null && r.paper !== r.ours).map((r) => r.partition),
    notes: m.notes,
    excluded: m.excluded.length,
    files,
  };
}

const fmt = (n: number | null): string => (n === null ? '—' : n.toLocaleString('en-US'));

function paperCell(r: CountComparison): string {
  return r.paper === null ? '—' : `${fmt(r.paper)}${r.basis === 'derived' ? '*' : ''}`;
}

function renderSummary(m: SplitManifest, files: readonly WrittenFile[]): string {
  const lines = [`${m.benchmark} splits (${m.procedure}; seeds ${Object.entries(m.seeds).map(([k, v]) => `${k} ${v}`).join(', ')})`];
  lines.push(`pool: ${m.pool.kind === 'user' ? '--pool' : 'shipped data'}: ${m.pool.description}`, '');
  const rows = m.comparison.map((r) => [r.partition, fmt(r.ours), paperCell(r), r.paper !== null && r.paper !== r.ours ? '≠' : '', r.note]);
  const widths = [10, 7, 7, 1].map((w, i) => Math.max(w, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[0]!) : i < 4 ? c.padStart(widths[i]!) : c))
      .join('  ')
      .trimEnd();
  lines.push(line(['partition', 'ours', 'paper', '', 'note']), ...rows.map(line));
  lines.push("(* derived from the paper's description by our reading; — not stated in our sources; ≠ ours differs)");
  if (m.notes.length > 0) lines.push('', ...m.notes.map((n) => `note: ${n}`));
  lines.push('', ...files.map((f) => `wrote ${f.file} (${fmt(f.bytes)} bytes, sha256 ${f.sha256})`));
  return `${lines.join('\n')}\n`;
}

export function registerSplitsCommand(program: Command, registry: BenchmarkRegistry, config?: ConfigFile): void {
  const benches = withSplits(registry);
  const ownFiles = benches.filter((d) => d.paperSplits.filesHelp !== undefined).map((d) => `for ${d.name}, ${d.paperSplits.filesHelp}`);
  program
    .command('splits')
    .description("Build the paper's task splits (test, validation, sft_train, rl_train) for a benchmark and write their manifest.")
    .option('--bench <name>', `benchmark: ${benches.map((d) => d.name).join(', ')}`)
    .option('--pool <file>', `a training pool in the benchmark's own format instead of the shipped one: ${benches.map((d) => `${d.name} ${d.paperSplits.poolHelp}`).join(', ')}`)
    .option('--out <dir>', `output folder for manifest.json${ownFiles.length > 0 ? ` (and, ${ownFiles.join('; ')})` : ''}`)
    .option('--data-dir <dir>', 'benchmark data folder (default ../shared/data or HARNESS_DATA_DIR)')
    .option('--config <file>', 'a JSON file with the same settings (camelCase keys); flags win')
    .option('--json', 'machine-readable summary')
    .addHelpText(
      'after',
      `
Examples:
  harness-r1 splits --bench dbbench --out splits/dbbench                               # shipped pool: dev.jsonl
  harness-r1 splits --bench dbbench --pool data/db_out_new.jsonl --out splits/dbbench   # the paper's 4,803-task pool
  harness-r1 splits --bench alfworld --out splits/alfworld       # also writes test_set.json as the release has it
  harness-r1 splits --bench alfworld --pool train_games.jsonl.gz --out splits/alfworld  # hashes for the train games
  harness-r1 splits --bench webshop --pool items_human_ins.json --out splits/webshop --json

The split is a pure function of the data files: the same files give a byte-identical manifest.json, which
lists every task's identity and content sha256, the seeds, the source files with their sha256, and our
counts against the paper's. Validation and test tasks never appear in sft_train or rl_train; exporters
check their rows against the manifest.`,
    )
    .action(async (opts: Record<string, unknown>) => {
      const received = receivedOptions({ registry, ...(config ? { config } : {}) }, opts, SPLITS_OPTION_KEYS) as SplitsCommandOptions;
      process.exitCode = await splitsCommand(received, process.stdout, registry);
    });
}

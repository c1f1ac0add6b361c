import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

import type { Command } from 'commander';

import { ConfigError } from '../../episode/index.js';
import { describeProvenance } from '../../report/provenance.js';
import { renderGroupsReport } from '../../report/render-groups.js';
import { REPORT_FILE_NAME } from '../../report/write-report.js';
import { writeArtifact } from '../../run-dir/artifact-file.js';
import { ImproveRunDir } from '../../run-dir/improve-run-dir.js';
import { findGroupFiles, loadGroupSet } from '../../training/groups/read-groups.js';
import { writeReport } from '../../report/write-report.js';
import { holdsExperimentRun, writeExperimentReport } from '../../report/experiment/write-experiment-report.js';
import type { CliContext } from '../cli-context.js';
import { EXIT_OK } from '../exit-codes.js';

export interface ReportCommandOptions {
  /** The run directory: an `improve` run, a plain `run`, or an experiment's run directory (`experiment.json`). */
  run: string;
  /** Where to write the HTML (default `<run>/report.html`). */
  out?: string;
  /** Open the report in the desktop's browser once written. */
  open?: boolean;
  /** The registry's benchmark definitions name the paper's table columns (experiment pages). */
  ctx?: CliContext;
}

/** Writes a run's HTML report and prints its path; the library function behind `harness-r1 report`. */
export async function reportCommand(o: ReportCommandOptions, out: NodeJS.WritableStream = process.stdout): Promise<{ code: number; file: string }> {
  if (typeof o.run !== 'string' || o.run.trim() === '') throw new ConfigError({ message: 'report needs a run directory: harness-r1 report RUN', field: 'run' });
  if (o.out !== undefined && o.out.trim() === '') throw new ConfigError({ message: '--out needs a file name.', field: 'out' });
  if (holdsOnlyGroups(o.run)) return groupsReport(o, out);
  const { file, labels, warnings } = holdsExperimentRun(o.run) ? await writeExperiment(o) : await writeRun(o);
  for (const warning of warnings) process.stderr.write(`warning: ${warning}\n`);
  out.write(`${file}${labels.length > 0 ? `  (${labels.join(', ')})` : ''}\n`);
  if (o.open) openInBrowser(file);
  return { code: EXIT_OK, file };
}

/** A folder of sample-group results (e.g. an `export rl` folder's `groups/`) that is not itself a run. */
function holdsOnlyGroups(dir: string): boolean {
  const root = path.resolve(dir);
  if (!existsSync(root) || ImproveRunDir.holdsImproveRun(root) || existsSync(path.join(root, 'run.json')) || existsSync(path.join(root, 'experiment.json'))) return false;
  return findGroupFiles(root).length > 0;
}

/** The GRPO-groups page of a folder of `group.json` files. */
function groupsReport(o: ReportCommandOptions, out: NodeJS.WritableStream): { code: number; file: string } {
  const view = loadGroupSet(o.run);
  const file = path.resolve(o.out ?? path.join(o.run, REPORT_FILE_NAME));
  writeArtifact(file, renderGroupsReport(view, { generatedAt: new Date().toISOString() }));
  const labels = [view.targetSimulated ? 'SIMULATED TARGET' : null, view.engineerSymbolic ? 'SYMBOLIC ENGINEER' : null].filter((x) => x !== null);
  out.write(`${file}  (${view.groups.length} GRPO group(s), ${view.zeroVarianceGroups} zero-variance)${labels.length > 0 ? `  (${labels.join(', ')})` : ''}\n`);
  if (o.open) openInBrowser(file);
  return { code: EXIT_OK, file };
}

async function writeRun(o: ReportCommandOptions): Promise<{ file: string; labels: string[]; warnings: string[] }> {
  const { file, artifacts } = await writeReport({ runDir: o.run, ...(o.out !== undefined ? { out: o.out } : {}) });
  const p = describeProvenance(artifacts);
  const labels = [p.simulatedTarget ? 'SIMULATED TARGET' : null, p.symbolicEngineer ? 'SYMBOLIC ENGINEER' : null].filter((x) => x !== null);
  return { file, labels, warnings: artifacts.warnings };
}

function writeExperiment(o: ReportCommandOptions): Promise<{ file: string; labels: string[]; warnings: string[] }> {
  const registry = o.ctx?.registry;
  return writeExperimentReport({
    runDir: o.run,
    ...(o.out !== undefined ? { out: o.out } : {}),
    columnsOf: (bench) => {
      const definition = registry?.names().includes(bench) ? registry.get(bench) : undefined;
      return definition ? { success: definition.paperColumns?.success ?? `${definition.title} Succ.`, score: definition.paperColumns?.score ?? `${definition.title} Score` } : undefined;
    },
  });
}

/** Hands the file to the desktop's opener; a missing opener is reported, never fatal. */
function openInBrowser(file: string): void {
  const [command, args] =
    process.platform === 'darwin' ? ['open', [file]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', file]] : ['xdg-open', [file]];
  const child = spawn(command, args as string[], { detached: true, stdio: 'ignore' });
  child.on('error', (error) => process.stderr.write(`could not open the report (${error.message}); open ${file} in a browser.\n`));
  child.unref();
}

export function registerReportCommand(program: Command, ctx?: CliContext): void {
  program
    .command('report')
    .description('Write a self-contained HTML report of a run: summary, per-batch and per-task before/after, flips, patches with their verdicts, hooks fired, charts.')
    .argument('<run>', 'run directory: an improve run (summary.json, baseline/, batches/, reruns/), a plain run (run.json, episodes.jsonl) or an experiment (experiment.json); or a folder of sample-group results (group.json files, e.g. <export>/groups/): GRPO group statistics')
    .option('--out <file>', 'where to write the report (default <run>/report.html)')
    .option('--open', 'open the report in a browser once written')
    .addHelpText(
      'after',
      `
The report reads only the stored artifacts (it never plays an episode) and works offline: inline CSS, inline
SVG charts, no external files. Results of a simulated target or the symbolic engineer are labelled as such.
An experiment's run directory (experiment heldout, experiment ablation) gets its page: the tables in the
paper's layouts, the charts, and links to every patch and to the episodes behind each number (every run
store it links to gets its own report.html).

Examples:
  harness-r1 report runs/improve-<bench>-dev-20260101-120000
  harness-r1 report runs/my-run --out /tmp/my-run.html --open`,
    )
    .action(async (run: string, opts: Record<string, unknown>) => {
      const result = await reportCommand({
        run,
        ...(opts.out !== undefined ? { out: String(opts.out) } : {}),
        ...(opts.open ? { open: true } : {}),
        ...(ctx ? { ctx } : {}),
      });
      process.exitCode = result.code;
    });
}

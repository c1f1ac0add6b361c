import type { MainArtifact, MainBenchCell, MainRow } from '../../experiments/main-table/main-summary.js';
import type { BatchResult } from '../../run-dir/batch-artifacts.js';
import { RunArtifactError } from '../../run-dir/read-run.js';
import type { ExperimentReader } from './experiment-page.js';

/** The files behind one row's figure on one benchmark (relative to the run directory). */
export interface MainCellFiles {
  /** Run stores whose episodes make the figure: the baseline, a strategy's own store, or an engineer's reruns. */
  stores: { label: string; dir: string }[];
  patches: { label: string; file: string }[];
}

export interface MainPageModel {
  name: string;
  artifact: MainArtifact;
  /** Per row (same order as `artifact.rows`), per benchmark (same order as `artifact.benches`). */
  files: MainCellFiles[][];
  /** Every task family of each benchmark (alphabetical), over every row. */
  families: Map<string, string[]>;
}

function checkArtifact(a: unknown): MainArtifact {
  const t = a as MainArtifact;
  const ok = typeof a === 'object' && a !== null && t.schemaVersion === 1 && t.kind === 'main' && Array.isArray(t.rows) && Array.isArray(t.benches);
  if (!ok) throw new RunArtifactError({ file: 'main.json', problem: 'invalid_shape', message: 'expected a main-table summary (schemaVersion 1, kind main, benches, rows)' });
  return t;
}

/**
 * Finds the stores behind a cell from its folder alone, whatever kind of row it is: a run store in the
 * folder itself (a strategy row), a `baseline` store in it (the default row), and each batch's patch and
 * rerun store (an engineer row).
 */
function cellFiles(reader: ExperimentReader, cell: MainBenchCell): MainCellFiles {
  const dir = cell.dir.split('\\').join('/');
  const stores: MainCellFiles['stores'] = [];
  const patches: MainCellFiles['patches'] = [];
  if (reader.has(`${dir}/run.json`)) stores.push({ label: 'episodes', dir });
  if (reader.has(`${dir}/baseline/run.json`)) stores.push({ label: 'baseline', dir: `${dir}/baseline` });
  for (const b of cell.batches) {
    const folder = `${dir}/batches/${b.tag}`;
    if (reader.has(`${folder}/patch.json`)) patches.push({ label: b.tag, file: `${folder}/patch.json` });
    const result = reader.json<BatchResult>(`${folder}/result.json`);
    const rerun = result?.rerun ? `${dir}/reruns/${result.rerun.cacheKey}` : null;
    if (rerun && reader.has(`${rerun}/run.json`)) stores.push({ label: `${b.tag} rerun`, dir: rerun });
  }
  if (stores.length === 0) reader.warn(`${dir}: no run store behind this figure was found.`);
  return { stores, patches };
}

/** Reads `main.json` and the files behind every row's figures. */
export function loadMainPage(reader: ExperimentReader): MainPageModel {
  const raw = reader.json<unknown>('main.json');
  if (raw === undefined) throw new RunArtifactError({ file: 'main.json', problem: 'missing', message: 'is missing: the main-table experiment has not finished; run the same command again to resume it.' });
  const artifact = checkArtifact(raw);
  const files = artifact.rows.map((row: MainRow) => artifact.benches.map((b) => {
    const cell = row.cells.find((c) => c.bench === b.name);
    return cell ? cellFiles(reader, cell) : { stores: [], patches: [] };
  }));
  const families = new Map(artifact.benches.map((b) => [b.name, [...new Set(artifact.rows.flatMap((r) => r.cells.filter((c) => c.bench === b.name).flatMap((c) => c.families.map((f) => f.family))))].sort()]));
  return { name: reader.run.root.split(/[\\/]/).pop() ?? '', artifact, files, families };
}

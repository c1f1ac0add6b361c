/**
 * The run directory of a paper experiment. It holds improve-style parts (a `baseline/` run store, one
 * `batches/<tag>/` folder of stage files per patch the engineer is asked for, `reruns/<key>/` run stores),
 * through `ImproveRunDir`, plus what the experiment adds:
 *
 * ```
 * <run>/experiment.json           what the experiment is (kind, benchmark, target, engineer, seeds, …);
 *                                 a resumed run must be the same experiment
 * <run>/arms/<name>/              a run store per extra rerun of the experiment (a seed's held-out tasks,
 *                                 an ablation arm and repeat)
 * <run>/cells/<bench>/<target>/   an improve-style folder per cell of a multi-target experiment (transfer,
 *                                 main table): `baseline/`, and `batches/` + `reruns/` directly (one
 *                                 engineer) or under `<engineer>/` (several)
 * <run>/results.json              the original's results file, where the experiment has one (held-out)
 * <run>/patch.json                the one patch the experiment reruns, where it is given (ablation)
 * <run>/<kind>.json               the experiment's own summary: every figure with its paired statistics
 * ```
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

import { ConfigError } from '../episode/index.js';
import { readJsonArtifact, writeJsonArtifact } from './artifact-file.js';
import { ImproveRunDir } from './improve-run-dir.js';

export const EXPERIMENT_LAYOUT = {
  identity: 'experiment.json',
  arms: 'arms',
  cells: 'cells',
  results: 'results.json',
  patch: 'patch.json',
} as const;

/** `experiment.json`: the experiment's kind and every setting that changes its numbers. */
export interface ExperimentIdentity {
  schemaVersion: 1;
  kind: string;
  settings: Record<string, unknown>;
}

export class ExperimentRunDir extends ImproveRunDir {
  get experimentIdentityFile(): string {
    return path.join(this.root, EXPERIMENT_LAYOUT.identity);
  }

  get resultsFile(): string {
    return path.join(this.root, EXPERIMENT_LAYOUT.results);
  }

  /** `<run>/patch.json`: the patch an experiment was given, kept so that its page can link to it. */
  get patchFile(): string {
    return path.join(this.root, EXPERIMENT_LAYOUT.patch);
  }

  writePatch(patch: unknown): void {
    writeJsonArtifact(this.patchFile, patch);
  }

  /** `<run>/<kind>.json`. */
  summaryFileOf(kind: string): string {
    return path.join(this.root, `${kind}.json`);
  }

  armDir(name: string): string {
    return path.join(this.root, EXPERIMENT_LAYOUT.arms, name);
  }

  /** `<run>/cells/<part>/…`: the folder of one cell of a multi-target experiment. */
  cellDir(...parts: string[]): string {
    return path.join(this.root, EXPERIMENT_LAYOUT.cells, ...parts);
  }

  /**
   * Records the experiment's identity in a new directory, or checks it against the one stored (resume):
   * another experiment in the same directory is a usage error naming every setting that differs.
   */
  claim(identity: ExperimentIdentity): void {
    const stored = readJsonArtifact<ExperimentIdentity>(this.experimentIdentityFile);
    if (!stored) {
      if (existsSync(this.root) && ImproveRunDir.holdsImproveRun(this.root)) {
        throw new ConfigError({ message: `${this.root} holds an improve run, not an experiment.`, field: 'out' });
      }
      writeJsonArtifact(this.experimentIdentityFile, identity);
      return;
    }
    const differences: string[] = [];
    if (stored.kind !== identity.kind) differences.push(`kind: ${stored.kind} → ${identity.kind}`);
    for (const key of new Set([...Object.keys(stored.settings), ...Object.keys(identity.settings)])) {
      const a = JSON.stringify(stored.settings[key]);
      const b = JSON.stringify(identity.settings[key]);
      if (a !== b) differences.push(`${key}: ${a ?? '(unset)'} → ${b ?? '(unset)'}`);
    }
    if (differences.length > 0) {
      throw new ConfigError({ message: `${this.root} holds another experiment; to resume it, give the same settings (${differences.join('; ')}), or choose another --out.`, field: 'out' });
    }
  }

  writeSummaryOf(kind: string, summary: unknown): void {
    writeJsonArtifact(this.summaryFileOf(kind), summary);
  }

  readSummaryOf<T>(kind: string): T | undefined {
    return readJsonArtifact<T>(this.summaryFileOf(kind));
  }
}

import type { RunArtifacts } from '../run-dir/read-run.js';

/**
 * Where a run's results came from. A report must say, wherever it shows results, when they come from the
 * simulated target rather than a real model, and when patches come from the built-in symbolic engineer
 * rather than an LLM.
 */
export interface Provenance {
  targetLabel: string;
  /** True when any episode of the run (baseline or rerun) was played by a simulated target. */
  simulatedTarget: boolean;
  /** Null for a plain run, which has no engineer. */
  engineerLabel: string | null;
  /** True when any batch's patch came from the built-in symbolic engineer. */
  symbolicEngineer: boolean;
}

export function describeProvenance(a: RunArtifacts): Provenance {
  if (a.kind === 'run') {
    return { targetLabel: a.run.manifest.target.label, simulatedTarget: a.run.manifest.target.simulated, engineerLabel: null, symbolicEngineer: false };
  }
  return {
    targetLabel: a.summary.target.label,
    simulatedTarget:
      a.summary.target.simulated ||
      a.baseline.manifest.target.simulated ||
      a.batches.some((b) => b.metadata?.targetSimulated === true || b.rerun?.manifest.target.simulated === true),
    engineerLabel: a.summary.engineer.label,
    symbolicEngineer: a.summary.engineer.symbolic || a.batches.some((b) => b.result.engineer.symbolic || b.metadata?.engineer.symbolic === true),
  };
}

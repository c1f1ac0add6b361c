import { formatPairedSummary, formatSeedSpread } from '../../statistics/index.js';
import { formatExperimentCost } from '../shared/experiment-cost.js';
import type { HeldoutArtifact, PairedCounts } from './heldout-summary.js';

/** The label every output of simulated numbers carries, or '' for a real target and engineer. */
export function resultLabel(labels: readonly string[]): string {
  return labels.length === 0 ? '' : `[${labels.map((l) => l.toUpperCase()).join(' · ')} — not a real model's result]`;
}

function countsLine(c: PairedCounts): string {
  const delta = `${c.deltaPass >= 0 ? '+' : '−'}${Math.abs(c.deltaPass)}`;
  const score = c.score ? `; score ${formatPairedSummary(c.score)}` : '';
  return `${c.baselinePass}/${c.tasks} → ${c.patchedPass}/${c.tasks} (${delta}; rescued ${c.rescued}, regressed ${c.regressed}): ${formatPairedSummary(c.paired)}${score}`;
}

/** The CLI summary of a held-out run: per seed, then pooled with the full-split figure beside it. */
export function renderHeldoutSummary(a: HeldoutArtifact): string {
  const label = resultLabel(a.labels);
  const lines = [
    `held-out generalization: ${a.bench}/${a.split}, ${a.seeds.length} seed(s) × ${a.evidencePerSeed} evidence failures, one patch per seed ${label}`.trimEnd(),
    `target: ${a.target.label}; engineer: ${a.engineer.label}`,
  ];
  if (a.excludedTasks.length > 0) lines.push(`left out: ${a.excludedTasks.length} task(s) whose baseline episode failed for infrastructure reasons (${a.excludedTasks.map((t) => `#${t.task} ${t.outcome}`).join(', ')})`);
  for (const s of a.seeds) {
    const patch = s.valid ? `valid, hooks ${s.hooks.join(', ')}` : `no intervention (${s.validationError})`;
    lines.push(`seed ${s.seed}: ${patch}; status ${s.status}`);
    lines.push(`  held-out   ${countsLine(s.heldOut)}`);
    lines.push(`  full split ${countsLine(s.fullSplit)}`);
  }
  lines.push(`pooled held-out: ${a.pooled.headline} — ${formatSeedSpread(a.pooled.deltaRate)} mean ± sample sd over seeds`);
  lines.push(`full split (with the evidence tasks): ${formatSeedSpread(a.fullSplit.deltaRate)}`);
  if (a.cost) lines.push(formatExperimentCost(a.cost));
  return lines.join('\n');
}

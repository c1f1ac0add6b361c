/**
 * Which successful episodes become demonstrations: one per benchmark and task identity, as the release's
 * agent-SFT builder keeps them (`dedupe_by_task`): the highest reward, then success, then the shortest
 * conversation; a later candidate replaces the kept one only when strictly better, so ties keep the one read
 * first (`--from` order, then task order; an improve run's baseline before its reruns).
 */
import { choiceKeeps, skipReason, taskIdentity, type EpisodeChoice, type EpisodeKind, type SourcedEpisode } from './collect-episodes.js';

export interface BenchmarkCounts {
  /** Final episode records read from the sources. */
  read: number;
  /** Episodes of the kind not asked for (`--episodes`). */
  otherKind: number;
  /** Agent outcomes below the success reward. */
  failures: number;
  /** Infrastructure failures (never a demonstration, never a failure of the agent). */
  infrastructureFailures: number;
  /** Episodes without an assistant turn. */
  empty: number;
  /** Successful episodes of the chosen kind(s). */
  candidates: number;
  /** Candidates whose task already had a demonstration. */
  duplicatesDropped: number;
  kept: number;
  keptByKind: Record<EpisodeKind, number>;
}

function emptyCounts(): BenchmarkCounts {
  return { read: 0, otherKind: 0, failures: 0, infrastructureFailures: 0, empty: 0, candidates: 0, duplicatesDropped: 0, kept: 0, keptByKind: { harnessed: 0, no_intervention: 0 } };
}

function score(e: SourcedEpisode, minReward: number): [number, number, number] {
  return [e.record.reward, e.record.reward >= minReward ? 1 : 0, -e.record.messages.length];
}

function better(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return false;
}

export interface Selection {
  demos: SourcedEpisode[];
  byBenchmark: Record<string, BenchmarkCounts>;
}

/** The demonstrations among `episodes`, in benchmark, split and task order, and the counts of what was left out. */
export function selectDemos(episodes: readonly SourcedEpisode[], choice: EpisodeChoice, minReward: number): Selection {
  const byBenchmark: Record<string, BenchmarkCounts> = {};
  const kept = new Map<string, SourcedEpisode>();
  for (const e of episodes) {
    const bench = e.record.task.bench;
    const counts = (byBenchmark[bench] ??= emptyCounts());
    counts.read++;
    if (!choiceKeeps(choice, e.kind)) {
      counts.otherKind++;
      continue;
    }
    const reason = skipReason(e, minReward);
    if (reason === 'failure') counts.failures++;
    else if (reason === 'infrastructure_failure') counts.infrastructureFailures++;
    else if (reason === 'empty') counts.empty++;
    if (reason !== null) continue;
    counts.candidates++;
    const key = taskIdentity(e);
    const previous = kept.get(key);
    if (previous === undefined) {
      kept.set(key, e);
      continue;
    }
    counts.duplicatesDropped++;
    if (better(score(e, minReward), score(previous, minReward))) kept.set(key, e);
  }
  const demos = [...kept.values()].sort((a, b) => {
    const x = a.record.task;
    const y = b.record.task;
    return x.bench.localeCompare(y.bench) || x.split.localeCompare(y.split) || x.index - y.index || taskIdentity(a).localeCompare(taskIdentity(b));
  });
  for (const d of demos) {
    const counts = byBenchmark[d.record.task.bench]!;
    counts.kept++;
    counts.keptByKind[d.kind]++;
  }
  return { demos, byBenchmark };
}

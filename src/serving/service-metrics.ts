import { EVAL_STATUSES, type EvalStatus } from '../episode/eval-status.js';

const PREFIX = 'harness_r1_reward';
/** Rerun durations kept for the quantiles (the most recent ones). */
const KEPT_DURATIONS = 10_000;

/** The service's counters, rendered in the Prometheus text format for `GET /metrics`. */
export class ServiceMetrics {
  requests = 0;
  /** Items answered from a finished result (this process or a previous one). */
  cacheHits = 0;
  /** Items that created a new job. */
  cacheMisses = 0;
  /** Items that joined a job already queued or running. */
  inflightJoins = 0;
  /** Reruns actually played (a rerun found complete on disk is not counted). */
  reruns = 0;
  rejectedQueueFull = 0;
  jobErrors = 0;
  readonly statuses = new Map<EvalStatus, number>();
  private readonly durations: number[] = [];
  private durationSum = 0;
  private durationCount = 0;

  status(status: EvalStatus): void {
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
  }

  rerunSeconds(seconds: number): void {
    this.durations.push(seconds);
    if (this.durations.length > KEPT_DURATIONS) this.durations.shift();
    this.durationSum += seconds;
    this.durationCount++;
  }

  /** The q-quantile of the kept rerun durations (nearest rank), or null before the first rerun. */
  quantile(q: number): number | null {
    if (this.durations.length === 0) return null;
    const sorted = [...this.durations].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
  }

  render(gauges: { queued: number; running: number; done: number }): string {
    const lines: string[] = [];
    const metric = (name: string, type: 'gauge' | 'counter' | 'summary', help: string, samples: [string, number][]) => {
      lines.push(`# HELP ${PREFIX}_${name} ${help}`, `# TYPE ${PREFIX}_${name} ${type}`);
      for (const [labels, value] of samples) lines.push(`${PREFIX}_${name}${labels} ${value}`);
    };
    metric('queue_depth', 'gauge', 'Jobs waiting for a rerun slot.', [['', gauges.queued]]);
    metric('reruns_in_flight', 'gauge', 'Jobs being evaluated now.', [['', gauges.running]]);
    metric('results_stored', 'gauge', 'Finished results in the store.', [['', gauges.done]]);
    metric('requests_total', 'counter', 'Reward items received.', [['', this.requests]]);
    metric('cache_hits_total', 'counter', 'Items answered from a finished result.', [['', this.cacheHits]]);
    metric('cache_misses_total', 'counter', 'Items that created a new job.', [['', this.cacheMisses]]);
    metric('inflight_joins_total', 'counter', 'Items that shared a job already queued or running.', [['', this.inflightJoins]]);
    metric('reruns_total', 'counter', 'Reruns played.', [['', this.reruns]]);
    metric('rejected_total', 'counter', 'Items refused because the queue was full.', [['{reason="queue_full"}', this.rejectedQueueFull]]);
    metric('job_errors_total', 'counter', 'Jobs whose reward path failed (reported as missing evaluations).', [['', this.jobErrors]]);
    metric('results_total', 'counter', 'Results finished by this process, by status.', EVAL_STATUSES.map((s) => [`{status="${s}"}`, this.statuses.get(s) ?? 0]));
    const q = (x: number) => this.quantile(x) ?? Number.NaN;
    metric('rerun_seconds', 'summary', 'Wall time of the reruns played.', [
      ['{quantile="0.5"}', q(0.5)],
      ['{quantile="0.95"}', q(0.95)],
      ['_sum', this.durationSum],
      ['_count', this.durationCount],
    ]);
    const total = this.cacheHits + this.cacheMisses + this.inflightJoins;
    metric('cache_hit_ratio', 'gauge', 'Share of items answered without a new job.', [['', total === 0 ? 0 : (this.cacheHits + this.inflightJoins) / total]]);
    return `${lines.join('\n')}\n`;
  }
}

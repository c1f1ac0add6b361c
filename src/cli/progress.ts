import cliProgress from 'cli-progress';

import type { ImproveEvent } from '../evaluation/improve/improve-batch.js';
import type { BatchProgress } from '../evaluation/run-batch.js';
import { formatDuration, formatNumber } from './format.js';

export interface ProgressReporter {
  update(progress: BatchProgress): void;
  stop(): void;
}

/** Milliseconds since some fixed point; injected by tests. */
export type Clock = () => number;

/**
 * A progress bar on a terminal (done/total, successes, elapsed, ETA), one plain line per finished episode
 * otherwise (CI logs, pipes). Writes to stderr so `--json` output on stdout stays clean.
 */
export function createProgressReporter(label: string, stream: NodeJS.WriteStream = process.stderr, clock: Clock = Date.now): ProgressReporter {
  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        format: `${label} [{bar}] {value}/{total} | success {ok} | {duration_formatted} elapsed, ETA {eta_formatted} | last: {last}`,
        stream,
        hideCursor: true,
        clearOnComplete: false,
        etaBuffer: 20,
      },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    let ok = 0;
    return {
      update(p) {
        if (!started) {
          bar.start(p.total, p.done, { ok, last: '-' });
          started = true;
        }
        if (p.record?.outcome === 'success') ok++;
        bar.update(p.done, { ok, last: p.record ? `#${p.record.task.index} ${p.record.outcome}` : '-' });
      },
      stop: () => bar.stop(),
    };
  }
  const eta = new EtaTracker(clock);
  return {
    update(p) {
      const timing = eta.observe(p.done, p.total, p.record !== undefined);
      if (p.record) {
        const r = p.record;
        stream.write(`[${p.done}/${p.total}] task ${r.task.index}: ${r.outcome} reward=${formatNumber(r.reward)} rounds=${r.rounds} (${timing})\n`);
      } else if (p.done > 0) {
        stream.write(`[${p.done}/${p.total}] resumed: ${p.done} episodes already recorded\n`);
      }
    },
    stop() {},
  };
}

/**
 * Elapsed time and an estimate of the rest from the episodes played in this process (episodes a resumed
 * run found recorded are not counted as speed).
 */
export class EtaTracker {
  private readonly start: number;
  private played = 0;

  constructor(private readonly clock: Clock) {
    this.start = clock();
  }

  /** Notes one progress event and returns "elapsed 12 s, ETA 30 s" (ETA left out until one episode is played). */
  observe(done: number, total: number, played: boolean): string {
    if (played) this.played++;
    const elapsed = this.clock() - this.start;
    const left = Math.max(0, total - done);
    if (this.played === 0) return `elapsed ${formatDuration(elapsed)}`;
    if (left === 0) return `elapsed ${formatDuration(elapsed)}, done`;
    return `elapsed ${formatDuration(elapsed)}, ETA ${formatDuration((elapsed / this.played) * left)}`;
  }

  elapsed(): number {
    return this.clock() - this.start;
  }
}

/**
 * The live view of `improve` and `demo`: stage, batch, episodes done/total of the stage, successes so far,
 * elapsed and ETA. On a terminal one line rewritten in place; otherwise plain lines at each stage and about
 * every tenth of a stage's episodes.
 */
export function createImproveProgress(stream: NodeJS.WriteStream = process.stderr, clock: Clock = Date.now): { event(e: ImproveEvent): void; stop(): void } {
  const startedAt = clock();
  let stage: { key: string; eta: EtaTracker; successes: number; lastPrinted: number } | null = null;
  let batchesDone = 0;
  let liveLine = false;
  const write = (line: string) => {
    if (stream.isTTY) {
      stream.write(`\r\u001b[2K${line}`);
      liveLine = true;
    } else stream.write(`${line}\n`);
  };
  // A stage line keeps the last progress line above it, ended.
  const settle = (line: string) => {
    if (stream.isTTY && liveLine) stream.write('\n');
    liveLine = false;
    stream.write(`${line}\n`);
  };
  return {
    event(e) {
      const elapsed = formatDuration(clock() - startedAt);
      if (e.kind === 'stage') {
        if (e.stage === 'done') {
          batchesDone++;
          settle(`${e.batchTag}: done → ${e.detail ?? '?'} (${batchesDone} batch(es) done, elapsed ${elapsed})`);
        } else settle(`${e.batchTag}: ${e.stage}${e.detail ? ` → ${e.detail}` : ''}`);
        stage = null;
        return;
      }
      const key = `${e.batchTag}`;
      if (stage === null || stage.key !== key) stage = { key, eta: new EtaTracker(clock), successes: 0, lastPrinted: -1 };
      if (e.outcome === 'success') stage.successes++;
      const timing = stage.eta.observe(e.done, e.total, e.outcome !== undefined);
      const what = e.batchTag === 'baseline' ? 'baseline' : `${e.batchTag} rerun`;
      const line = `${what}: ${e.done}/${e.total} episodes, successes ${stage.successes}, ${timing} (total elapsed ${elapsed})`;
      const step = Math.max(1, Math.ceil(e.total / 10));
      if (stream.isTTY) write(line);
      else if (e.done === e.total || e.done - stage.lastPrinted >= step || stage.lastPrinted < 0) {
        stage.lastPrinted = e.done;
        write(line);
      }
    },
    stop() {
      if (stream.isTTY && liveLine) stream.write('\n');
      liveLine = false;
    },
  };
}

import cliProgress from 'cli-progress';

import type { BatchProgress } from '../evaluation/run-batch.js';

export interface ProgressReporter {
  update(progress: BatchProgress): void;
  stop(): void;
}

/**
 * A progress bar on a terminal, one plain line per finished episode otherwise (CI logs, pipes).
 * Writes to stderr so `--json` output on stdout stays clean.
 */
export function createProgressReporter(label: string, stream: NodeJS.WriteStream = process.stderr): ProgressReporter {
  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      { format: `${label} [{bar}] {value}/{total} | success {ok} | last: {last}`, stream, hideCursor: true, clearOnComplete: false },
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
  return {
    update(p) {
      if (p.record) {
        const r = p.record;
        stream.write(`[${p.done}/${p.total}] task ${r.task.index}: ${r.outcome} reward=${r.reward} rounds=${r.rounds}\n`);
      } else if (p.done > 0) {
        stream.write(`[${p.done}/${p.total}] resumed: ${p.done} episodes already recorded\n`);
      }
    },
    stop() {},
  };
}

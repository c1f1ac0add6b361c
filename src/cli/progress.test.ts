import { describe, expect, it } from 'vitest';

import { createImproveProgress, createProgressReporter, EtaTracker } from './progress.js';
import { testEpisode } from '../testing/dbbench-test-episodes.js';

/** A stream that keeps what is written; `isTTY` as given. */
function sink(isTTY: boolean): NodeJS.WriteStream & { text: () => string } {
  const chunks: string[] = [];
  return { isTTY, write: (c: string) => (chunks.push(c), true), text: () => chunks.join('') } as unknown as NodeJS.WriteStream & { text: () => string };
}

function clock(stepMs: number): () => number {
  let t = 0;
  return () => (t += stepMs);
}

describe('EtaTracker', () => {
  it('estimates the rest from the episodes played in this process', () => {
    let now = 0;
    const eta = new EtaTracker(() => now);
    expect(eta.observe(3, 10, false)).toBe('elapsed 0 ms'); // resumed episodes are no speed
    now = 2000;
    expect(eta.observe(4, 10, true)).toBe('elapsed 2.0 s, ETA 12 s');
    now = 4000;
    expect(eta.observe(10, 10, true)).toBe('elapsed 4.0 s, done');
  });
});

describe('createProgressReporter without a terminal', () => {
  it('prints one line per episode with a rounded reward, elapsed and ETA', () => {
    const out = sink(false);
    const progress = createProgressReporter('dbbench/dev', out, clock(1000));
    progress.update({ done: 1, total: 2, record: testEpisode({ index: 7, question: 'q', turns: [], outcome: 'wrong_answer', reward: 0.1 + 0.2 }) });
    expect(out.text()).toMatch(/^\[1\/2\] task 7: wrong_answer reward=0\.3 rounds=0 \(elapsed 1\.0 s, ETA 1\.0 s\)\n$/);
    expect(out.text()).not.toContain('\u001b');
  });
});

describe('createImproveProgress', () => {
  it('without a terminal: stage lines and about every tenth of the episodes, with successes, elapsed and ETA', () => {
    const out = sink(false);
    const progress = createImproveProgress(out, clock(100));
    for (let done = 1; done <= 20; done++) progress.event({ kind: 'episode', batchTag: 'baseline', done, total: 20, outcome: done % 2 === 0 ? 'success' : 'wrong_answer' });
    progress.event({ kind: 'stage', batchTag: 'b0', stage: 'engineer' });
    progress.event({ kind: 'stage', batchTag: 'b0', stage: 'done', detail: 'scored' });
    progress.stop();
    const lines = out.text().trimEnd().split('\n');
    const episodeLines = lines.filter((l) => l.startsWith('baseline:'));
    expect(episodeLines.map((l) => Number(/^baseline: (\d+)\//.exec(l)![1]))).toEqual([1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 20]); // the first, every second, the last
    expect(episodeLines.at(-1)).toMatch(/^baseline: 20\/20 episodes, successes 10, elapsed [\d.]+ s, done \(total elapsed/);
    expect(episodeLines[0]).toMatch(/^baseline: 1\/20 episodes, successes 0, elapsed \d+ ms, ETA [\d.]+ s/);
    expect(lines).toContain('b0: engineer');
    expect(lines.at(-1)).toMatch(/^b0: done → scored \(1 batch\(es\) done, elapsed/);
    expect(out.text()).not.toContain('\u001b');
  });

  it('on a terminal: one line rewritten in place, ended by a newline at a stage', () => {
    const out = sink(true);
    const progress = createImproveProgress(out, clock(100));
    progress.event({ kind: 'episode', batchTag: 'b1', done: 1, total: 3, outcome: 'success' });
    progress.event({ kind: 'episode', batchTag: 'b1', done: 2, total: 3, outcome: 'success' });
    progress.event({ kind: 'stage', batchTag: 'b1', stage: 'done', detail: 'inert' });
    const text = out.text();
    const parts = text.split('\r\u001b[2K').filter(Boolean);
    expect(parts).toHaveLength(2);
    expect(parts[0]).toMatch(/^b1 rerun: 1\/3 episodes, successes 1, /);
    // the last progress line stays, ended, above the stage line
    expect(parts[1]).toMatch(/^b1 rerun: 2\/3 episodes, successes 2, [^\n]*\nb1: done → inert \(1 batch\(es\) done, elapsed \d+ ms\)\n$/);
  });
});

import { describe, expect, it } from 'vitest';

import { summarizeRun } from '../evaluation/summarize-run.js';
import { testEpisode } from '../testing/dbbench-test-episodes.js';
import { renderImproveSummary } from './render-improve-summary.js';
import { renderRunSummary, SHORT_TASK_TABLE_ROWS } from './render-summary.js';
import type { ImproveSummary } from '../evaluation/improve/improve-run.js';

const records = Array.from({ length: 30 }, (_, index) =>
  testEpisode({ index, question: `q${index}`, turns: [{ commit: ['1'] }], outcome: index % 3 === 0 ? 'wrong_answer' : 'success' }),
);
const taskRows = (text: string) => text.split('\n').filter((line) => /^│ \d+ /.test(line));

describe('renderRunSummary', () => {
  it('shortens the per-task table of a long run, failures first, and says so', () => {
    const text = renderRunSummary(records, summarizeRun(records), 'sim');
    const rows = taskRows(text);
    expect(rows).toHaveLength(SHORT_TASK_TABLE_ROWS);
    // the 10 failures (0, 3, …, 27) come first
    expect(rows.slice(0, 10).every((r) => r.includes('wrong_answer'))).toBe(true);
    expect(text).toContain(`(${SHORT_TASK_TABLE_ROWS} of 30 tasks shown`);
    expect(text).toContain('success: 20/30');
  });

  it('prints every row with fullTable, and a short run in full without the note', () => {
    expect(taskRows(renderRunSummary(records, summarizeRun(records), 'sim', { fullTable: true }))).toHaveLength(30);
    const short = records.slice(0, 5);
    const text = renderRunSummary(short, summarizeRun(short), 'sim');
    expect(taskRows(text)).toHaveLength(5);
    expect(text).not.toContain('tasks shown');
  });
});

describe('renderImproveSummary', () => {
  const summary: ImproveSummary = {
    schemaVersion: 1 as ImproveSummary['schemaVersion'],
    bench: 'webshop', split: 'goals',
    target: { label: 'sim:webshop', simulated: true }, engineer: { label: 'symbolic', symbolic: true },
    batches: [{ tag: 'b0', status: 'scored', baselinePass: 2, patchedPass: 3, tasks: 10, score: 0.020000000000000004, rescued: [4], regressed: [], hookEffects: 3 }],
    totals: { batches: 1, scored: 1, meanScore: 0.020000000000000004, baselinePass: 2, patchedPass: 3, tasks: 10, missingEvaluations: 0, byStatus: { scored: 1 } },
  };

  it('names the metric of the reward and prints it in its unit, without float noise', () => {
    const text = renderImproveSummary(summary, undefined, 'delta_average_reward');
    expect(text).toContain('reward (Δ mean reward)');
    expect(text).toContain('+0.02');
    expect(text).not.toContain('0.020000000000000004');
    expect(text).not.toContain(' pp');
  });

  it('prints a pass-rate reward in percentage points', () => {
    const text = renderImproveSummary({ ...summary, batches: [{ ...summary.batches[0]!, score: 0.1 }], totals: { ...summary.totals, meanScore: 0.1 } }, undefined, 'delta_pass_rate');
    expect(text).toContain('reward (Δ pass rate)');
    expect(text).toContain('+10.0 pp');
  });
});

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Engineer } from '../../engineer/engineer.js';
import type { PreviousAttempt } from '../../engineer/previous-attempt.js';
import { createSandboxPool, type SandboxPool } from '../../sandbox/index.js';
import { improveRun, type ImproveRunOptions } from './improve-run.js';
import type { ImproveContext } from './improve-batch.js';
import { contextMaker, dbbench, engineer, gold, hook, infra, proposing, sawSkill, SILENT_PATCH, SKILL_PATCH, target, wrong } from '../../testing/scripted-loop.fixture.js';

// The whole loop with scripted targets and engineers: the stored baseline, its bounded infrastructure
// retries, resume, the summary, and the revision pass and what it is shown.

const root = mkdtempSync(path.join(tmpdir(), 'improve-run-'));
let pool: SandboxPool;
const context = contextMaker(root, () => pool);

beforeAll(async () => {
  pool = createSandboxPool({ size: 1, hookTimeoutMs: 1000 });
  await pool.ready();
});

afterAll(async () => {
  await pool.close();
  rmSync(root, { recursive: true, force: true });
});

const BATCHES = [
  { tag: 'batch_000', taskIndices: [0, 1] },
  { tag: 'batch_001', taskIndices: [2, 3] },
];
const manifest = (spec = 'scripted'): ImproveRunOptions['baselineManifest'] => ({ bench: 'dbbench', split: 'dev', target: { spec, label: 'scripted-target', simulated: true }, options: {} });

async function run(ctx: ImproveContext, batches = BATCHES, spec?: string) {
  const baselineEnvironment = await dbbench();
  try {
    return await improveRun({ context: ctx, batches, baselineEnvironment, baselineManifest: manifest(spec) });
  } finally {
    await baselineEnvironment.close();
  }
}

describe('improveRun', () => {
  it('plays the baseline once, retries its infrastructure failures within the bound, and writes the summary', async () => {
    let failures = 0;
    // Task #1 fails for infrastructure reasons on its first baseline attempt only; tasks 0 and 2 pass untouched.
    const model = target((task, request) => (task === 1 && failures++ === 0 ? infra : sawSkill(request) || task % 2 === 0 ? gold(task) : wrong));
    const ctx = context({ target: model, engineer: engineer(proposing(SKILL_PATCH)) });
    const { results, summary, baseline } = await run(ctx);
    expect(baseline.map((r) => [r.task.index, r.outcome])).toEqual([[0, 'success'], [1, 'wrong_answer'], [2, 'success'], [3, 'wrong_answer']]);
    expect(results.map((r) => [r.batchTag, r.status, r.excludedTasks, r.reward.score])).toEqual([
      ['batch_000', 'scored', [], 0.5],
      ['batch_001', 'scored', [], 0.5],
    ]);
    expect(JSON.parse(readFileSync(path.join(ctx.rootDir, 'summary.json'), 'utf8'))).toEqual(summary);
    expect(summary.totals).toMatchObject({ batches: 2, scored: 2, meanScore: 0.5, baselinePass: 2, patchedPass: 4, tasks: 4, missingEvaluations: 0 });

    // Resumed: nothing is played again, the same summary comes out.
    const played = model.calls.length;
    const again = await run(ctx);
    expect(model.calls.length).toBe(played);
    expect(again.summary).toEqual(summary);
  });

  it('keeps a baseline infrastructure failure that outlived the retries out of its batch', async () => {
    const model = target((task, request) => (task === 1 ? infra : sawSkill(request) ? gold(task) : wrong));
    const ctx = context({ target: model, engineer: engineer(proposing(SKILL_PATCH)), maxInfraRetries: 2 });
    const { results, baseline } = await run(ctx, [BATCHES[0]!]);
    expect(baseline.find((r) => r.task.index === 1)?.outcome).toBe('model_error');
    // Played once and retried twice.
    expect(model.calls.filter((c) => c.messages.some((m) => m.role === 'user' && String(m.content).includes('full name'))).length).toBe(3);
    expect(results[0]).toMatchObject({ excludedTasks: [1], baseline: { pass: 0, rewards: { 0: 0 } }, status: 'scored', reward: { score: 1 } });
  });

  it('refuses to reuse a stored baseline for another target', async () => {
    const ctx = context({ target: target(() => wrong), engineer: engineer(proposing(SKILL_PATCH)) });
    await run(ctx, [BATCHES[0]!]);
    await expect(run(ctx, [BATCHES[0]!], 'scripted:another')).rejects.toThrow(/Cannot resume .*baseline.*target: "scripted" → "scripted:another"/);
  });
});

describe('improveRun --revise', () => {
  /** An engineer whose revision pass records what it was shown and proposes `second`. */
  function revising(first: unknown, second: unknown): Engineer & { previous: PreviousAttempt[] } {
    const previous: PreviousAttempt[] = [];
    const text = `Quote names.\n</think>\n<patch>${JSON.stringify(first)}</patch>`;
    return {
      ...engineer({ status: 'ok', proposal: { kind: 'response', text: `<think>\n${text}`, protocol: 'full_think_patch' } }),
      previous,
      revise: (attempt) => {
        previous.push(attempt);
        return engineer(proposing(second));
      },
    };
  }

  it('runs a revision pass after a rerun batch, showing it the first result, flips, answer, patch and traces', async () => {
    // The skill rescues task 1 and breaks task 0.
    const model = target((task, request) => ((task === 0) === sawSkill(request) ? wrong : gold(task)));
    const e = revising(SKILL_PATCH, SILENT_PATCH);
    const ctx = context({ target: model, engineer: e, revise: true });
    const { results, summary } = await run(ctx, [BATCHES[0]!]);
    expect(results.map((r) => [r.batchTag, r.status])).toEqual([['batch_000', 'scored'], ['batch_000-revision', 'inert']]);
    expect(summary.batches.map((b) => b.tag)).toEqual(['batch_000', 'batch_000-revision']);
    expect(e.previous).toHaveLength(1);
    const p = e.previous[0]!;
    expect(p.result).toEqual({ tasks: 2, baselinePass: 1, patchedPass: 1, delta: 0, status: 'scored', baselineMean: 0.5, patchedMean: 0.5 });
    expect(p.flips).toEqual({ correctToWrong: [0], wrongToCorrect: [1] });
    expect(p.rawOutput).toMatch(/^<think>\nQuote names\.\n<\/think>\n<patch>/);
    expect(p.patch).toEqual(JSON.parse(readFileSync(path.join(ctx.rootDir, 'batches', 'batch_000', 'patch.json'), 'utf8')));
    expect(p.regressions?.map((r) => [r.task.index, r.outcome])).toEqual([[0, 'wrong_answer']]);
    expect(p.improvements?.map((r) => [r.task.index, r.outcome])).toEqual([[1, 'success']]);
    expect(p.stillFailing).toEqual([]);
  });

  it('shows the tasks that still fail, and no revision after a batch whose patch was never rerun', async () => {
    const model = target((task, request) => (task === 1 && sawSkill(request) ? gold(task) : wrong));
    const e = revising(SKILL_PATCH, SILENT_PATCH);
    const ctx = context({ target: model, engineer: e, revise: true });
    await run(ctx, [{ tag: 'batch_000', taskIndices: [0, 1, 2] }]);
    expect(e.previous[0]!.stillFailing?.map((r) => r.task.index)).toEqual([0, 2]);

    const rejected = revising(hook('import os\n'), SILENT_PATCH);
    const { results } = await run(context({ target: model, engineer: rejected, revise: true }), [BATCHES[0]!]);
    expect(results.map((r) => r.status)).toEqual(['invalid_patch_treated_as_no_patch']);
    expect(rejected.previous).toHaveLength(0);

    const off = revising(SKILL_PATCH, SILENT_PATCH);
    const plain = context({ target: model, engineer: off });
    expect((await run(plain, [BATCHES[0]!])).results).toHaveLength(1);
    expect(off.previous).toHaveLength(0);
    expect(existsSync(path.join(plain.rootDir, 'batches', 'batch_000-revision'))).toBe(false);
  });
});

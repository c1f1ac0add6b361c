import { beforeAll, describe, expect, it } from 'vitest';

import type { EpisodeRecord, HookTraceEntry } from '../episode/index.js';
import type { BatchResult } from '../evaluation/improve/improve-batch.js';
import type { ImproveSummary } from '../evaluation/improve/improve-run.js';
import type { HarnessPatch } from '../patch/index.js';
import type { RunManifest } from '../store/run-manifest.js';
import { renderReportCharts, type ReportChart } from './charts.js';
import type { BatchArtifacts, RunArtifacts, StoredRun } from '../run-dir/read-run.js';
import { renderReport } from './render-report.js';

/** Everything an artifact can carry that a browser could mistake for markup. */
const HOSTILE = `</pre></code></script><script>document.title='PWNED'</script><img src=x onerror="alert(1)"><b>bold</b>"'&amp;`;

function episode(index: number, reward: number, options: { hooks?: HookTraceEntry[]; outcome?: EpisodeRecord['outcome'] } = {}): EpisodeRecord {
  return {
    schemaVersion: 2,
    task: { bench: 'dbbench', split: 'dev', index },
    attempt: 1,
    outcome: options.outcome ?? (reward >= 1 ? 'success' : 'wrong_answer'),
    reward,
    rounds: 2,
    detail: { type: 'counting', reason: `grader says ${HOSTILE}` },
    steps: [
      { round: 1, tool: 'execute_sql', input: `SELECT "${HOSTILE}" FROM t`, observation: `[('${HOSTILE}',)]`, status: 'executed' },
      { round: 2, tool: 'commit_final_answer', input: [HOSTILE], observation: '', status: 'executed' },
    ],
    hookTrace: options.hooks ?? [],
    messages: [
      { role: 'system', content: 'system prompt' },
      { role: 'user', content: `question ${HOSTILE}` },
      { role: 'assistant', content: `thinking ${HOSTILE}`, toolCalls: [{ id: 'c1', name: 'execute_sql', arguments: JSON.stringify({ query: HOSTILE }) }], reasoning: HOSTILE },
      { role: 'tool', toolCallId: 'c1', content: HOSTILE },
    ],
    usage: { promptTokens: 10, completionTokens: 5, modelCalls: 2 },
  };
}

const PATCH_HOOKS: HookTraceEntry[] = [
  { round: 0, hook: 'on_init', hookIndex: 0, effect: 'init', disposition: 'applied', detail: `skill: ${HOSTILE}` },
  { round: 1, hook: 'make_pre_hint', hookIndex: 0, effect: 'hint', disposition: 'applied', detail: 'look at the schema' },
  { round: 1, hook: 'on_post_step', hookIndex: 0, effect: 'none', disposition: 'none', fault: { kind: 'exception', message: HOSTILE } },
];

function manifest(runId: string, simulated: boolean, taskIndices: number[]): RunManifest {
  return {
    schemaVersion: 1,
    runId,
    createdAt: '2026-01-01T00:00:00.000Z',
    bench: 'dbbench',
    split: 'dev',
    taskIndices,
    target: { spec: 'sim:dbbench', label: simulated ? 'sim:dbbench?seed=1 (simulated target)' : `real model ${HOSTILE}`, simulated },
    patch: null,
    options: {},
  };
}

function storedRun(dir: string, simulated: boolean, records: EpisodeRecord[]): StoredRun {
  return { dir, manifest: manifest(dir, simulated, records.map((r) => r.task.index)), records, tornTail: false };
}

const PATCH: HarnessPatch = {
  schema_version: 'harness-r1-patch-v1',
  benchmark: 'dbbench',
  description: `desc ${HOSTILE}`,
  actions: [
    { type: 'add_code_hook', hook: 'on_init', code: `def hook(ctx, nb):\n    return {'skills': [{'text': '${HOSTILE}'}]}` },
    { type: 'edit_tool_hint', tool: 'execute_sql', operation: 'append', text: HOSTILE },
  ],
};

function improveArtifacts(simulated: boolean, symbolic: boolean): RunArtifacts {
  const engineer = { label: symbolic ? 'symbolic' : `llm ${HOSTILE}`, symbolic };
  const baselineRewards = [1, 0, 0, 1, 0, 1];
  const baseline = storedRun('baseline', simulated, baselineRewards.map((r, i) => episode(i, r)));
  const rerun = storedRun('reruns/abc123', simulated, [1, 1, 1, 0].map((r, i) => episode(i, r, { hooks: PATCH_HOOKS })));
  const scored: BatchResult = {
    schemaVersion: 1,
    batchTag: 'batch_000',
    taskIndices: [0, 1, 2, 3],
    status: 'scored',
    validPatch: true,
    excludedTasks: [],
    baseline: { pass: 2, rewards: { 0: 1, 1: 0, 2: 0, 3: 1 } },
    patched: { pass: 3, rewards: { 0: 1, 1: 1, 2: 1, 3: 0 } },
    reward: {
      score: 0.25,
      metric: 'delta_pass_rate',
      raw: { batchSize: 4, baselinePass: 2, patchedPass: 3, baselineAverage: 0.5, patchedAverage: 0.75, deltaPassRate: 0.25, deltaAverageReward: 0.25, metric: 'delta_pass_rate', score: 0.25, rescued: [1, 2], regressed: [3], unchanged: 1 },
    },
    hookEffects: { 'on_init:init': 4, 'make_pre_hint:hint': 4 },
    hookFaults: 4,
    engineer,
    rejection: null,
    rerun: { cacheKey: 'abc123', cacheHit: false, attempts: 1, infraFailures: 0 },
    notes: [`note ${HOSTILE}`],
  };
  const invalid: BatchResult = {
    ...scored,
    batchTag: 'batch_001',
    taskIndices: [4, 5],
    status: 'invalid_patch_treated_as_no_patch',
    validPatch: false,
    baseline: { pass: 1, rewards: { 4: 0, 5: 1 } },
    patched: null,
    reward: { score: 0, metric: 'delta_pass_rate', raw: null },
    hookEffects: {},
    hookFaults: 0,
    rejection: `actions[0].code: hook_compile: ${HOSTILE}`,
    rerun: null,
    notes: [],
  };
  const batches: BatchArtifacts[] = [
    { tag: 'batch_000', result: scored, metadata: null, engineer: { status: 'ok', proposal: { kind: 'patch', patch: PATCH } }, prompt: null, packet: null, rawResponse: null, verdict: { kind: 'valid', patch: PATCH, notes: [] }, patch: PATCH, rerun },
    {
      tag: 'batch_001',
      result: invalid,
      metadata: null,
      engineer: { status: 'ok', proposal: { kind: 'response', text: HOSTILE, protocol: 'json_patch' } },
      prompt: [{ role: 'user', content: `prompt ${HOSTILE}` }],
      rawResponse: `raw ${HOSTILE}`,
      packet: null,
      verdict: { kind: 'invalid', rejection: { rule: 'hook_compile', stage: 'normalize', field: 'actions[0].code', message: `hook uses forbidden syntax: ${HOSTILE}`, exception: 'PatchValidationError' }, notes: [] },
      patch: null,
      rerun: null,
    },
  ];
  const summary: ImproveSummary = {
    schemaVersion: 1,
    bench: 'dbbench',
    split: 'dev',
    target: { label: baseline.manifest.target.label, simulated },
    engineer,
    batches: [
      { tag: 'batch_000', status: 'scored', baselinePass: 2, patchedPass: 3, tasks: 4, score: 0.25, rescued: [1, 2], regressed: [3], hookEffects: 8 },
      { tag: 'batch_001', status: 'invalid_patch_treated_as_no_patch', baselinePass: 1, patchedPass: null, tasks: 2, score: 0, rescued: [], regressed: [], hookEffects: 0 },
    ],
    totals: { batches: 2, scored: 1, meanScore: 0.125, baselinePass: 3, patchedPass: 4, tasks: 6, missingEvaluations: 0, byStatus: { scored: 1, invalid_patch_treated_as_no_patch: 1 } },
  };
  return { kind: 'improve', name: 'improve-fixture', summary, baseline, batches, warnings: [] };
}

function section(page: string, id: string): string {
  const start = page.indexOf(`<section id="${id}">`);
  expect(start, `section #${id}`).toBeGreaterThanOrEqual(0);
  const end = page.indexOf('</h2>', start);
  return page.slice(start, end);
}

function metric(page: string, name: string): string | undefined {
  return new RegExp(`data-metric="${name}">([^<]*)`).exec(page)?.[1];
}

/** Markup the page may contain only because the report itself wrote it. */
function expectNoInjectedMarkup(page: string): void {
  expect(page.match(/<script/g)).toHaveLength(1);
  expect(page).not.toMatch(/<img|<b>|onerror="|<script>document/);
  expect(page).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&lt;b&gt;bold&lt;/b&gt;&quot;&#39;&amp;amp;');
}

describe('renderReport (improve run)', () => {
  let charts: ReportChart[];
  const artifacts = improveArtifacts(true, true);
  beforeAll(async () => {
    charts = await renderReportCharts(artifacts);
  });

  it('renders the summary numbers, per-batch rows and flips', () => {
    const page = renderReport(artifacts, charts);
    expect(metric(page, 'baseline-pass')).toBe('3/6 (50.0%)');
    expect(metric(page, 'patched-pass')).toBe('4/6 (66.7%)');
    expect(metric(page, 'delta-pass')).toBe('+1 (+16.7 pp)');
    expect(metric(page, 'mean-score')).toBe('+0.125');
    expect(metric(page, 'batches-scored')).toBe('1/2');
    const batchRow = /<tr data-batch="batch_000">(.*?)<\/tr>/s.exec(page)?.[1] ?? '';
    expect(batchRow).toContain('+25.0 pp');
    expect(batchRow).toContain('<span class="status scored"');
    expect(/<ul data-flips="rescued">(.*?)<\/ul>/s.exec(page)?.[1]).toMatch(/task 1.*task 2/s);
    expect(/<ul data-flips="regressed">(.*?)<\/ul>/s.exec(page)?.[1]).toContain('task 3');
    expect(page).toMatch(/<tr class="rescued" data-task="1">/);
    expect(page).toMatch(/<tr class="regressed" data-task="3">/);
    expect(page).toMatch(/<tr class="not_rerun" data-task="4">/);
  });

  it('shows the patch code, the verdicts, and the hooks that fired per episode', () => {
    const page = renderReport(artifacts, charts);
    expect(page).toContain('<span class="verdict valid">VALID</span>');
    expect(page).toContain('<span class="verdict invalid">INVALID</span> — rule <code>hook_compile</code>');
    expect(page).toContain('<code>add_code_hook</code> → <code>on_init</code>');
    expect(page).toContain('def hook(ctx, nb):');
    expect(page).toMatch(/id="patched-1".*?hooks fired: <code>on_init:init<\/code> ×1, <code>make_pre_hint:hint<\/code> ×1, <code>on_post_step fault: exception<\/code> ×1/s);
    expect(page).toMatch(/id="baseline-1".*?hooks fired: <span class="muted">none<\/span>/s);
  });

  it('escapes every artifact string (agent text, SQL, hook code, labels, rejections)', () => {
    expectNoInjectedMarkup(renderReport(artifacts, charts));
    expectNoInjectedMarkup(renderReport(improveArtifacts(false, false), charts));
  });

  it('says SIMULATED and SYMBOLIC wherever results are shown, and only when true', () => {
    const page = renderReport(artifacts, charts);
    expect(page).toContain('data-provenance="simulated-target"');
    expect(page).toContain('data-provenance="symbolic-engineer"');
    for (const id of ['summary', 'charts', 'batches', 'flips', 'tasks', 'episodes']) expect(section(page, id)).toContain('SIMULATED TARGET');
    for (const id of ['summary', 'batches', 'patches']) expect(section(page, id)).toContain('SYMBOLIC ENGINEER');
    for (const id of charts.map((c) => c.id)) expect(page).toMatch(new RegExp(`<figure id="${id}"[^>]*SIMULATED`));
    expect(page.match(/<summary><strong>(baseline|patched)<\/strong>[^\n]*SIMULATED TARGET/g)).toHaveLength(10);
    const real = renderReport(improveArtifacts(false, false), []);
    expect(real).not.toMatch(/SIMULATED|SYMBOLIC/);
  });

  it('is self-contained: no external URL, a CSP that forbids loading, an inline SVG chart', () => {
    const page = renderReport(artifacts, charts);
    expect(page).not.toMatch(/https?:\/\//);
    expect(page).not.toMatch(/<link|@import|<[a-z][^<>]*\s(src|href)="(?!#)/i);
    expect(page).toContain('content="default-src &#39;none&#39;;');
    expect(page).toMatch(/<figure id="chart-passes"[^>]*><svg/);
    expect(renderReport(artifacts, charts)).toBe(page);
  });
});

describe('renderReport (plain run)', () => {
  it('renders the summary, per-task table and hooks fired of a run directory', async () => {
    const run = storedRun('.', true, [episode(0, 1, { hooks: PATCH_HOOKS }), episode(1, 0), episode(2, 0, { outcome: 'model_error' })]);
    const artifacts: RunArtifacts = { kind: 'run', name: 'plain', run, warnings: [`torn ${HOSTILE}`] };
    const charts = await renderReportCharts(artifacts);
    expect(charts.map((c) => c.id)).toEqual(['chart-outcomes', 'chart-hooks']);
    const page = renderReport(artifacts, charts, { generatedAt: '2026-01-01T00:00:00.000Z' });
    expect(metric(page, 'success')).toBe('1/2 (50.0%)');
    expect(metric(page, 'infra-failures')).toBe('1');
    expect(page).toContain('<tr data-task="2">');
    expect(page).toContain('Generated 2026-01-01T00:00:00.000Z');
    for (const id of ['summary', 'charts', 'tasks', 'hooks', 'episodes']) expect(section(page, id)).toContain('SIMULATED TARGET');
    expectNoInjectedMarkup(page);
  });

  it('has a per-family table when tasks have families: success, rate and mean reward, infrastructure failures left out', async () => {
    const withFamily = (r: EpisodeRecord, family: string): EpisodeRecord => ({ ...r, task: { ...r.task, bench: 'alfworld' }, detail: { family } });
    const records = [withFamily(episode(0, 1), 'pick_and_place'), withFamily(episode(1, 0), 'pick_and_place'), withFamily(episode(2, 1), 'look_at_obj'), withFamily(episode(3, 0, { outcome: 'env_error' }), 'look_at_obj')];
    const artifacts: RunArtifacts = { kind: 'run', name: 'families', run: storedRun('.', true, records), warnings: [] };
    const page = renderReport(artifacts, await renderReportCharts(artifacts));
    expect(section(page, 'families')).toContain('SIMULATED TARGET');
    const rows = [...page.matchAll(/<tr data-family="([^"]*)">(.*?)<\/tr>/gs)].map((m) => [m[1], (m[2] ?? '').replace(/<[^>]+>/g, '|').replace(/\|+/g, '|')]);
    expect(rows).toEqual([
      ['look_at_obj', '|look_at_obj|1/1|100.0%|1.000|'],
      ['pick_and_place', '|pick_and_place|1/2|50.0%|0.500|'],
    ]);
    expect(page).toContain('<a href="#families">Per family</a>');
  });

  it('has no per-family table when no task has a family (WebShop goals)', async () => {
    const records = [episode(0, 1), episode(1, 0)].map((r) => ({ ...r, detail: {} }));
    const artifacts: RunArtifacts = { kind: 'run', name: 'none', run: storedRun('.', true, records), warnings: [] };
    expect(renderReport(artifacts, await renderReportCharts(artifacts))).not.toContain('<section id="families">');
  });
});

describe('renderReport (improve run, per family)', () => {
  it('counts passes before and after and the flips per family over the compared tasks', async () => {
    const artifacts = improveArtifacts(true, true);
    const page = renderReport(artifacts, await renderReportCharts(artifacts));
    expect(section(page, 'families')).toContain('SYMBOLIC ENGINEER');
    const row = /<tr data-family="counting">(.*?)<\/tr>/s.exec(page)?.[1] ?? '';
    expect(row.replace(/<[^>]+>/g, '|').replace(/\|+/g, '|')).toBe('|counting|4|2/4 (50.0%)|3/4 (75.0%)|2|1|');
  });
});

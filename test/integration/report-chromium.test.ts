import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { dbBenchOverlayOf } from '../../src/benchmarks/dbbench/overlay-of-patch.js';
import { TEST_REGISTRY } from '../../src/testing/sim-baseline.fixture.js';

import { reportCommand } from '../../src/cli/commands/report.js';
import { resolveTarget, type ResolvedTarget } from '../../src/app/resolve-target.js';
import { sandboxCompiler } from '../../src/app/sandbox-compiler.js';
import { resolveDataDir } from '../../src/config/data-dir.js';
import type { Engineer } from '../../src/engineer/engineer.js';
import { dbBenchEnvironment } from '../../src/benchmarks/dbbench/environment.js';
import { createSqliteBackend } from '../../src/environments/dbbench/sqlite-backend.js';
import { makeBatches } from '../../src/evaluation/improve/batches.js';
import { improveRun, type ImproveSummary } from '../../src/evaluation/improve/improve-run.js';
import { summarizeRun } from '../../src/evaluation/summarize-run.js';
import { writeReport } from '../../src/report/write-report.js';
import { createSandboxPool, type SandboxPool } from '../../src/sandbox/index.js';

/**
 * A real (small) improve run — simulated target, SQLite, the sandboxed Python hooks of one of the original
 * release's DBBench patches — is rendered to its HTML report and opened in headless Debian chromium. The
 * DOM chromium builds must show the run's numbers, the SIMULATED label, the chart and the report's own
 * script having run, and none of the hostile text the engineer wrote may have become markup.
 */
const CHROMIUM = '/usr/bin/chromium';
const HAS_CHROMIUM = existsSync(CHROMIUM);
const SUITE = HAS_CHROMIUM
  ? 'HTML report in headless chromium'
  : `HTML report in headless chromium — SKIPPED: ${CHROMIUM} does not exist (install the Debian chromium package to run it)`;

const HOSTILE = `<script>document.title='PWNED'</script><img src=x onerror="document.title='PWNED'"><b id="hostile">x</b>`;

/** Opens a page in headless chromium and returns the DOM it built (after its scripts ran). */
function dumpDom(file: string, profile: string): Promise<string> {
  const args = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    `--user-data-dir=${profile}`,
    '--dump-dom',
    pathToFileURL(file).href,
  ];
  return new Promise((resolve, reject) => {
    execFile(CHROMIUM, args, { timeout: 90_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`chromium failed: ${error.message}\n${stderr.slice(-2000)}`));
      else resolve(stdout);
    });
  });
}

function percent(pass: number, total: number): string {
  return `${((pass / total) * 100).toFixed(1)}%`;
}

describe.skipIf(!HAS_CHROMIUM)(SUITE, () => {
  let dataDir: string;
  let root: string;
  let runDir: string;
  let summary: ImproveSummary;
  let pool: SandboxPool;
  let target: ResolvedTarget;

  beforeAll(async () => {
    dataDir = resolveDataDir();
    root = mkdtempSync(path.join(tmpdir(), 'report-chromium-'));
    runDir = path.join(root, 'improve-run');
    const patch: unknown = JSON.parse(readFileSync(path.join(dataDir, 'patches/heldout_generalization/harness-r1/seed20260720/dbbench.json'), 'utf8'));
    // A stand-in engineer (not the symbolic one): it always proposes the same corpus patch.
    const engineer: Engineer = {
      label: `fixed corpus patch ${HOSTILE}`,
      kind: 'llm',
      propose: async () => ({ status: 'ok', proposal: { kind: 'patch', patch }, notes: [`engineer note ${HOSTILE}`] }),
    };
    pool = createSandboxPool({ size: 2 });
    target = await resolveTarget('sim:dbbench?seed=1', { dataDir, registry: TEST_REGISTRY });
    const baselineEnvironment = dbBenchEnvironment({ dataDir, split: 'dev', backend: createSqliteBackend() });
    try {
      ({ summary } = await improveRun({
        batches: makeBatches(Array.from({ length: 20 }, (_, i) => i), 10),
        baselineEnvironment,
        baselineManifest: { bench: 'dbbench', split: 'dev', target: { spec: 'sim:dbbench?seed=1', label: target.model.label, simulated: true }, options: { backend: 'sqlite' } },
        context: {
          benchmark: TEST_REGISTRY.get('dbbench'),
          patchRules: TEST_REGISTRY.patchRules(),
          split: 'dev',
          rootDir: runDir,
          openEnvironment: async (installed) => dbBenchEnvironment({ dataDir, split: 'dev', backend: createSqliteBackend(), ...(installed ? { overlay: dbBenchOverlayOf(installed) } : {}) }),
          target: target.model,
          engineer,
          compiler: sandboxCompiler(pool),
          pool,
          concurrency: 2,
          threshold: 1,
          metric: 'delta_pass_rate',
          maxInfraRetries: 1,
          rerunContext: { target: 'sim:dbbench?seed=1' },
        },
      }));
    } finally {
      await baselineEnvironment.close();
    }
  });

  afterAll(async () => {
    await target?.close();
    await pool?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('renders the improve run: numbers, per-batch rows, flips, status, SIMULATED label, chart', async () => {
    expect(summary.batches.some((b) => b.status === 'scored')).toBe(true);
    const { file } = await writeReport({ runDir });
    expect(file).toBe(path.join(runDir, 'report.html'));
    const dom = await dumpDom(file, path.join(root, 'profile-improve'));

    // The report's own script ran (its CSP hash is right), and the hostile engineer text stayed text.
    expect(dom).toMatch(/<html lang="en" class="js">/);
    expect(dom).not.toContain('PWNED</title>');
    expect(dom).not.toMatch(/<img|<b id="hostile">/);
    expect(dom).toContain('&lt;b id="hostile"&gt;x&lt;/b&gt;');

    const t = summary.totals;
    expect(dom).toContain(`data-metric="baseline-pass">${t.baselinePass}/${t.tasks} (${percent(t.baselinePass, t.tasks)})<`);
    expect(dom).toContain(`data-metric="patched-pass">${t.patchedPass}/${t.tasks} (${percent(t.patchedPass, t.tasks)})<`);
    const delta = t.patchedPass - t.baselinePass;
    expect(dom).toContain(`data-metric="delta-pass">${delta >= 0 ? '+' : '−'}${Math.abs(delta)} (`);
    expect(dom).toContain(`data-metric="batches-scored">${t.scored}/${t.batches}<`);
    for (const b of summary.batches) {
      const row = new RegExp(`<tr data-batch="${b.tag}">(.*?)</tr>`, 's').exec(dom)?.[1] ?? '';
      expect(row, b.tag).toContain(`<td class="num">${b.baselinePass}</td>`);
      expect(row, b.tag).toContain(`<td class="num">${b.patchedPass ?? '—'}</td>`);
      expect(row, b.tag).toContain(`<span class="status ${b.status}"`);
      if (b.patchedPass !== null) expect(row, b.tag).toContain(`${b.score >= 0 ? '+' : '−'}${Math.abs(b.score * 100).toFixed(1)} pp`);
      for (const i of b.rescued) expect(dom).toMatch(new RegExp(`<ul data-flips="rescued">.*?<a href="#task-${i}">task ${i}</a>`, 's'));
      for (const i of b.regressed) expect(dom).toMatch(new RegExp(`<ul data-flips="regressed">.*?<a href="#task-${i}">task ${i}</a>`, 's'));
    }

    expect(dom).toContain('data-simulated-target="true"');
    expect(dom).toContain('SIMULATED TARGET — every episode in this report was played by the built-in simulated target');
    expect(dom).not.toContain('SYMBOLIC ENGINEER');
    expect(dom).toMatch(/<figure id="chart-passes"[^>]*><svg[^>]*>.*?<path[^>]*aria-label="[^"]*batch_000/s);
    expect(dom).toMatch(/<span class="verdict valid">VALID<\/span>/);
    expect(dom).toMatch(/<code>add_code_hook<\/code> → <code>on_before_action<\/code>/);
    expect(dom).toMatch(/<details class="episode patched" id="patched-\d+">\s*<summary>.*?hooks fired: <code>on_init:init<\/code> ×1/s);
    expect(dom).not.toMatch(/<link|<iframe|https?:\/\/(?!www\.w3\.org)/);
    // Played without a strategy: no strategy line and no success@2 column.
    expect(dom).not.toContain('data-metric="strategy"');
    expect(dom).not.toContain('success@2');
  });

  it('renders a plain run directory (the improve run baseline) through the command', async () => {
    const out = path.join(root, 'baseline-report.html');
    const { file } = await reportCommand({ run: path.join(runDir, 'baseline'), out }, { write: () => true } as unknown as NodeJS.WritableStream);
    const dom = await dumpDom(file, path.join(root, 'profile-run'));
    const records = readFileSync(path.join(runDir, 'baseline', 'episodes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Parameters<typeof summarizeRun>[0][number]);
    const latest = new Map(records.map((r) => [r.task.index, r]));
    const s = summarizeRun([...latest.values()]);
    expect(dom).toContain(`data-metric="success">${s.successes}/${s.scored} (${percent(s.successes, s.scored)})<`);
    expect(dom).toContain('data-report-kind="run"');
    expect(dom).toContain('SIMULATED TARGET');
    expect(dom).toMatch(/<figure id="chart-outcomes"[^>]*><svg/);
  });
});

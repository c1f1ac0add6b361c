/**
 * `npm run mutate [-- [--break N] [module …]]`: mutation testing (StrykerJS) of the modules that decide
 * results, one module at a time, then the mutation score per module and the surviving mutants.
 *
 * Each module is its own Stryker run with its own incremental file (`.stryker/<module>.incremental.json`),
 * so a run scoped to some modules keeps the others' results and a rerun retests only what changed. Common
 * settings (test runner, concurrency 1, timeouts) are in `stryker.config.json`; the test set is
 * `vitest.mutate.config.ts` (the unit tests beside the code). `--break N` exits 1 when a module scores below N %.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { Stryker } from '@stryker-mutator/core';
import type { MutantResult } from '@stryker-mutator/api/core';

interface Module {
  name: string;
  /** Files (or `file:lines` ranges) to mutate. */
  mutate: string[];
  /**
   * The fast tests that must kill the module's mutants: its own unit tests and the pipeline tests that drive
   * it directly. Keeping to them keeps a run short and shows what the module's own tests guard.
   */
  tests: string[];
  /** Reward-deciding: held to at least 90 % killed. */
  decidesReward: boolean;
}

export const MODULES: Module[] = [
  {
    // The reward decision and everything pure around it, with pure tests (a few minutes).
    name: 'evaluation/improve: reward decision', decidesReward: true,
    mutate: ['src/evaluation/improve/*.ts', '!src/evaluation/improve/improve-batch.ts', '!src/evaluation/improve/improve-run.ts', '!src/evaluation/improve/judge-proposal.ts', '!src/evaluation/improve/play-baseline.ts', '!src/evaluation/improve/*.test.ts', '!src/evaluation/improve/*.fixture.ts'],
    tests: ['src/evaluation/improve/decide-reward.test.ts', 'src/evaluation/improve/batch-reward.test.ts', 'src/evaluation/improve/summarize-improve.test.ts', 'src/evaluation/improve/rerun-findings.test.ts'],
  },
  // The pipeline around it, in three parts so that each run is saved on its own: their tests play real
  // episodes in the Python sandbox (seconds per mutant).
  {
    name: 'evaluation/improve: improveBatch', decidesReward: true,
    // improveBatch and the reward path it shares with sample-group (judgeProposal and validateProposal:
    // validate, rerun, decide), and the artifact writer whose failure is a user-facing ConfigError.
    mutate: ['src/evaluation/improve/improve-batch.ts', 'src/evaluation/improve/judge-proposal.ts:108-157', 'src/run-dir/artifact-file.ts'],
    tests: ['src/run-dir/artifact-file.test.ts', 'src/evaluation/improve/judge-proposal.test.ts', 'src/evaluation/improve/improve-batch.test.ts', 'src/evaluation/improve/improve-batch-records.test.ts', 'src/evaluation/improve/improve-batch-edges.test.ts'],
  },
  {
    name: 'evaluation/improve: rerun', decidesReward: true,
    // rerunPatch and rerun: the cached, resumable rerun store and its infrastructure retries, and how the
    // context's options (replay, strategy, switched-off hooks, progress, signal) reach it. Driven directly
    // and through judgeProposal; improveBatch's tests reach it only through the whole pipeline.
    mutate: ['src/evaluation/improve/judge-proposal.ts:159-207'],
    tests: ['src/evaluation/improve/rerun-patch.test.ts', 'src/evaluation/improve/rerun-patch-options.test.ts', 'src/evaluation/improve/judge-proposal.test.ts'],
  },
  {
    // The loop over batches: the revision pass and what it is told, the summary, replay and stop wiring.
    name: 'evaluation/improve: improveRun', decidesReward: true,
    mutate: ['src/evaluation/improve/improve-run.ts'],
    tests: ['src/evaluation/improve/improve-run.test.ts', 'src/evaluation/improve/improve-run-options.test.ts'],
  },
  {
    // The stored baseline and its bounded infrastructure retries: direct tests without a sandbox (minutes).
    name: 'evaluation/improve: playBaseline', decidesReward: true,
    mutate: ['src/evaluation/improve/play-baseline.ts'],
    tests: ['src/evaluation/improve/play-baseline.test.ts'],
  },
  {
    name: 'evaluation/summaries', decidesReward: false,
    mutate: ['src/evaluation/summarize-run.ts', 'src/evaluation/summarize-families.ts', 'src/evaluation/run-batch.ts'],
    tests: ['src/evaluation/*.test.ts', 'src/evaluation/improve/improve-batch.test.ts'],
  },
  // Whether a patch is rejected as invalid or a runtime no-op decides the batch's status and reward.
  // rejection.ts from line 60 on is the table that classifies messages the original recorded, for parity reports.
  {
    name: 'patch validation', decidesReward: true,
    mutate: ['src/patch/validate-patch.ts', 'src/patch/runtime-noop.ts', 'src/patch/rejection.ts:1-59'],
    tests: ['src/patch/validate-patch.test.ts', 'src/patch/rejection.test.ts', 'src/patch/validate-patch-file.test.ts', 'src/patch/runtime-noop-rules.test.ts', 'src/patch/validate-patch-edges.test.ts'],
  },
  // What normalization and extraction reject (protocol §3: hook names, action-list bounds, text limits and
  // leakage, legacy DSL, fenced and tagged responses) decides whether the patch counts, so the reward.
  {
    name: 'patch normalization', decidesReward: true,
    mutate: ['src/patch/normalize-patch.ts', 'src/patch/legacy-actions.ts', 'src/patch/conditions.ts', 'src/patch/clean-text.ts', 'src/patch/extract-patch-json.ts', 'src/patch/tag-blocks.ts'],
    tests: ['src/patch/clean-text.test.ts', 'src/patch/extract-patch-json.test.ts', 'src/patch/tag-blocks.test.ts', 'src/patch/validate-patch.test.ts', 'src/patch/validate-patch-edges.test.ts', 'src/patch/validate-patch-file.test.ts', 'src/patch/legacy-actions-edges.test.ts', 'src/patch/normalize-patch-edges.test.ts', 'src/patch/clean-text-edges.test.ts', 'src/patch/extract-patch-json-edges.test.ts', 'src/patch/tag-blocks-edges.test.ts'],
  },
  {
    name: 'dbbench grading', decidesReward: true,
    mutate: ['src/environments/dbbench/grade.ts', 'src/environments/dbbench/table-hash.ts'],
    tests: ['src/environments/dbbench/grade*.test.ts', 'src/environments/dbbench/table-hash.test.ts'],
  },
  {
    name: 'webshop reward', decidesReward: true,
    mutate: ['src/environments/webshop/reward.ts'],
    tests: ['src/environments/webshop/reward*.test.ts', 'src/environments/webshop/type-reward-boundary.test.ts'],
  },
  {
    // solve.ts without its search-order heuristics (candidateTuples, candidateCount, the conjunct choice in
    // solveConjunction, cost): they pick which index to scan and which conjunct to try first, and every
    // choice they can make gives the same solutions, so their mutants can only change speed.
    name: 'alfworld goal check', decidesReward: true,
    mutate: ['src/environments/alfworld/goal-check.ts', 'src/environments/alfworld/pddl/solve.ts:1-82', 'src/environments/alfworld/pddl/solve.ts:106-132', 'src/environments/alfworld/pddl/solve.ts:143-145', 'src/environments/alfworld/pddl/solve.ts:162-197'],
    tests: ['src/environments/alfworld/goal-check.test.ts', 'src/environments/alfworld/pddl/solve*.test.ts'],
  },
  {
    name: 'hook effects', decidesReward: false,
    mutate: ['src/hooks/normalize-effect.ts'],
    tests: ['src/hooks/normalize-effect.test.ts', 'src/runtime/call-hooks.test.ts'],
  },
  // The sandbox's options and how an episode reports its worker's faults, in two runs: the options' tests are
  // pure; the episode's start with scripted stand-in workers (fault-worker.fixture.js), then real pools.
  {
    name: 'sandbox options', decidesReward: false,
    mutate: ['src/sandbox/sandbox-options.ts'],
    tests: ['src/sandbox/sandbox-options.test.ts', 'src/sandbox/worker-command.test.ts'],
  },
  {
    name: 'sandbox episode', decidesReward: false,
    mutate: ['src/sandbox/sandbox-episode.ts'],
    tests: ['src/sandbox/sandbox-episode-faults.test.ts', 'src/sandbox/sandbox-episode.test.ts', 'src/sandbox/hook-budget.test.ts', 'src/sandbox/python-hook-provider.test.ts'],
  },
  {
    name: 'run store', decidesReward: false,
    mutate: ['src/store/run-store.ts'],
    tests: ['src/store/*.test.ts'],
  },
];

const OUT = '.stryker';

interface Score {
  module: string;
  decidesReward: boolean;
  mutants: number;
  killed: number;
  timeout: number;
  survived: number;
  noCoverage: number;
  /** Mutants that do not compile or crash the test run: Stryker leaves them out of the score. */
  invalid: number;
  /**
   * Survivors in module-level code (constants evaluated on import). Stryker 9.6.1's vitest runner does not
   * put such a mutant into effect with vitest 4.1 (a test that fails on it planted by hand still passes
   * under Stryker), so these are checked by hand; see the README.
   */
  staticSurvived: number;
  score: number;
  seconds: number;
  survivors: string[];
}

function slug(name: string): string {
  return name.replace(/[^a-z0-9]+/gi, '-');
}

function scoreOf(module: Module, results: readonly MutantResult[], seconds: number): Score {
  const count = (status: string) => results.filter((r) => r.status === status).length;
  const killed = count('Killed');
  const timeout = count('Timeout');
  const survived = count('Survived');
  const noCoverage = count('NoCoverage');
  const detected = killed + timeout;
  const valid = detected + survived + noCoverage;
  return {
    module: module.name,
    decidesReward: module.decidesReward,
    mutants: results.length,
    killed,
    timeout,
    survived,
    noCoverage,
    invalid: count('CompileError') + count('RuntimeError'),
    staticSurvived: results.filter((r) => r.status === 'Survived' && r.static === true).length,
    score: valid === 0 ? 100 : (100 * detected) / valid,
    seconds,
    survivors: results
      .filter((r) => r.status === 'Survived' || r.status === 'NoCoverage')
      .map((r) => `${path.relative(process.cwd(), r.fileName)}:${r.location.start.line}:${r.location.start.column + 1} ${r.mutatorName} ${r.status === 'NoCoverage' ? '(no coverage) ' : r.static ? '(static) ' : ''}→ ${r.replacement.replace(/\s+/g, ' ').slice(0, 100)}`),
  };
}

async function runModule(module: Module): Promise<Score> {
  const started = performance.now();
  const file = slug(module.name);
  // Each mutant's result as it comes (scripts/stryker-mutant-log.js), for a run stopped part-way.
  process.env.STRYKER_MUTANT_LOG = path.join(OUT, `${file}.progress.log`);
  const results = await new Stryker({
    plugins: ['@stryker-mutator/vitest-runner', './scripts/stryker-mutant-log.js'],
    reporters: ['clear-text', 'progress', 'json', 'mutant-log'],
    mutate: module.mutate,
    testFiles: module.tests,
    incrementalFile: path.join(OUT, `${file}.incremental.json`),
    jsonReporter: { fileName: path.join(OUT, `${file}.mutation.json`) },
  }).runMutationTest();
  const score = scoreOf(module, results, (performance.now() - started) / 1000);
  writeFileSync(path.join(OUT, `${file}.score.json`), `${JSON.stringify(score, null, 2)}\n`);
  return score;
}

function table(scores: readonly Score[]): string {
  const rows = [
    ['module', 'mutants', 'killed', 'timeout', 'survived', 'of them static', 'no cov.', 'invalid', 'score', 'time'],
    ...scores.map((s) => [
      `${s.module}${s.decidesReward ? ' *' : ''}`, String(s.mutants), String(s.killed), String(s.timeout), String(s.survived), String(s.staticSurvived ?? 0), String(s.noCoverage), String(s.invalid),
      `${s.score.toFixed(1)} %`, `${Math.round(s.seconds)} s`,
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ')).join('\n');
}

async function main(argv: string[]): Promise<number> {
  const breakAt = argv.includes('--break') ? Number(argv[argv.indexOf('--break') + 1]) : undefined;
  const names = argv.filter((a, i) => a !== '--break' && argv[i - 1] !== '--break');
  const unknown = names.filter((n) => !MODULES.some((m) => m.name === n));
  if (unknown.length > 0 || (breakAt !== undefined && !Number.isFinite(breakAt))) {
    process.stderr.write(`usage: npm run mutate -- [--break PERCENT] [module …]\nmodules: ${MODULES.map((m) => JSON.stringify(m.name)).join(', ')}\n`);
    return 2;
  }
  mkdirSync(OUT, { recursive: true });
  const chosen = names.length === 0 ? MODULES : MODULES.filter((m) => names.includes(m.name));
  const ran = new Set<string>();
  for (const module of chosen) {
    process.stdout.write(`\n=== mutation testing: ${module.name} (${module.mutate.join(', ')})\n`);
    await runModule(module);
    ran.add(module.name);
  }
  // The table shows every module with a recorded score, marking those not rerun now.
  const scores = MODULES.map((m) => path.join(OUT, `${slug(m.name)}.score.json`))
    .filter((f) => existsSync(f))
    .map((f) => JSON.parse(readFileSync(f, 'utf8')) as Score);
  process.stdout.write(`\n=== mutation score per module (* decides rewards; killed + timeout over all valid mutants)\n${table(scores)}\n`);
  const stale = scores.filter((s) => !ran.has(s.module)).map((s) => s.module);
  if (stale.length > 0) process.stdout.write(`(not rerun now, from the last run: ${stale.join(', ')})\n`);
  for (const s of scores.filter((x) => x.survivors.length > 0)) {
    process.stdout.write(`\nsurvivors in ${s.module}:\n${s.survivors.map((x) => `  ${x}`).join('\n')}\n`);
  }
  const low = scores.filter((s) => ran.has(s.module) && breakAt !== undefined && s.score < breakAt);
  if (low.length > 0) process.stderr.write(`\nbelow ${breakAt} %: ${low.map((s) => s.module).join(', ')}\n`);
  return low.length > 0 ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));

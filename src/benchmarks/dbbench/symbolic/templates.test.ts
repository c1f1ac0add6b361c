import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { BUILTIN_PATCH_RULES } from '../../../testing/builtin-patch-rules.js';

import { sandboxCompiler } from '../../../app/sandbox-compiler.js';
import type { HookName } from '../../../episode/index.js';
import type { DbBenchTask } from '../../../environments/dbbench/dbbench-task.js';
import { DbBenchEpisodeState } from '../../../environments/dbbench/episode-state.js';
import { buildDbBenchHookContext } from '../../../environments/dbbench/hook-context.js';
import type { EpisodeHooks, HookCallResult } from '../../../hooks/hook-provider.js';
import { normalizeHookResult } from '../../../hooks/normalize-effect.js';
import { findForbiddenPattern, validatePatch, type HookCompiler } from '../../../patch/index.js';
import { createPythonHookProvider, createSandboxPool, type SandboxPool } from '../../../sandbox/index.js';
import { composePatch, composeSoftPatch, type ComposedPatch } from './compose-patch.js';
import { SIGNATURE_IDS, type SignatureId } from './signatures.js';
import { pyStr } from '../../../engineer/symbolic/python-kit.js';

let pool: SandboxPool;
let compiler: HookCompiler;

beforeAll(async () => {
  pool = createSandboxPool({ size: 1, hookTimeoutMs: 1000 });
  await pool.ready();
  compiler = sandboxCompiler(pool);
});

afterAll(async () => {
  await pool.close();
});

const HOOK_ORDER = ['on_init', 'on_post_step', 'make_pre_hint', 'on_before_action'];

/** Every patch the engineer can produce: each template alone, all together (in two rankings), and the soft patch. */
const PRODUCIBLE: [string, ComposedPatch][] = [
  ...SIGNATURE_IDS.map((id): [string, ComposedPatch] => [id, composePatch([id])]),
  ['all signatures', composePatch([...SIGNATURE_IDS])],
  ['all signatures, reversed ranking', composePatch([...SIGNATURE_IDS].reverse())],
  ['soft-hint patch', composeSoftPatch()],
];

describe('every producible patch passes the real validator and sandbox compiler', () => {
  it.each(PRODUCIBLE)('%s', async (_name, composed) => {
    const verdict = await validatePatch(composed.patch, { benchmarks: BUILTIN_PATCH_RULES, bench: 'dbbench', compiler, codeHookOnly: true, rejectRuntimeNoop: true });
    if (verdict.kind === 'invalid') throw new Error(`invalid: ${JSON.stringify(verdict.rejection)}`);
    expect(verdict.kind).toBe('valid');
    const hooks = composed.patch.actions.map((a) => a.hook);
    expect(hooks.length).toBeGreaterThanOrEqual(2);
    expect(hooks.length).toBeLessThanOrEqual(4);
    expect(new Set(hooks).size).toBe(hooks.length);
    expect([...hooks].sort((a, b) => HOOK_ORDER.indexOf(a) - HOOK_ORDER.indexOf(b))).toEqual(hooks);
    expect(findForbiddenPattern(composed.patch.description)).toBeUndefined();
    expect(composed.patch.description).not.toMatch(/\d/);
    const installed = await createPythonHookProvider(pool, composed.patch.actions, { rules: { numberedInstances: false } });
    expect(installed.dropped).toEqual([]);
    for (const h of installed.installed) expect(h.nodeCount).toBeLessThanOrEqual(1200);
  });

  it('pyStr writes ASCII Python literals and splits long texts', () => {
    expect(pyStr('a "b" \\ é')).toBe('"a \\"b\\" \\\\ \\u00e9"');
    expect(pyStr('x'.repeat(650)).split(' + ')).toHaveLength(3);
  });
});

/** Drives installed hooks with the real DBBench ctx builder over a synthetic task. */
class Driver {
  readonly st: DbBenchEpisodeState;
  round = 0;
  private constructor(
    task: DbBenchTask,
    private readonly hooks: EpisodeHooks,
  ) {
    this.st = new DbBenchEpisodeState(task);
  }

  static async open(composed: ComposedPatch, task: DbBenchTask): Promise<Driver> {
    const provider = await createPythonHookProvider(pool, composed.patch.actions, { rules: { numberedInstances: false } });
    return new Driver(task, await provider.openEpisode());
  }

  private async one(hook: HookName, ctx: Record<string, unknown>): Promise<unknown> {
    const results: HookCallResult[] = await this.hooks.call(hook, ctx);
    for (const r of results) if ('fault' in r) throw new Error(`${hook} fault ${r.fault.kind}: ${r.fault.message}`);
    const raw = results.map((r) => ('raw' in r ? r.raw : undefined)).find((r) => r !== undefined && r !== null);
    return normalizeHookResult(hook, raw, ctx);
  }

  init() {
    return this.one('on_init', buildDbBenchHookContext({ hook: 'on_init', round: 0, remaining: 20 }, this.st)) as Promise<{ skills: string[]; toolHint: string } | undefined>;
  }

  /** Starts the next round: the pre-decision hint, if any. */
  async next(): Promise<string | undefined> {
    this.round++;
    const effect = (await this.one('make_pre_hint', buildDbBenchHookContext({ hook: 'make_pre_hint', round: this.round, remaining: 21 - this.round }, this.st))) as
      | { message: string }
      | undefined;
    return effect?.message;
  }

  private async guard(tool: string, value: unknown): Promise<string | undefined> {
    const call = { id: `c${this.round}`, tool, args: { v: value }, firstValue: value };
    const effect = (await this.one('on_before_action', buildDbBenchHookContext({ hook: 'on_before_action', round: this.round, remaining: 21 - this.round, call }, this.st))) as
      | { kind: string; message?: string }
      | undefined;
    return effect?.kind === 'block_and_prompt' ? effect.message : undefined;
  }

  /** One SQL call: the block message, or undefined when it ran (and on_post_step was called). */
  async sql(query: string, result: string): Promise<string | undefined> {
    const blocked = await this.guard('execute_sql', query);
    if (blocked !== undefined) return blocked;
    this.st.updateAfterSql(query, result);
    const call = { id: `c${this.round}`, tool: 'execute_sql', args: { query }, firstValue: query };
    await this.one('on_post_step', buildDbBenchHookContext({ hook: 'on_post_step', round: this.round, remaining: 20 - this.round, call, observation: result }, this.st));
    return undefined;
  }

  commit(answers: unknown): Promise<string | undefined> {
    return this.guard('commit_final_answer', answers);
  }
}

const queryTask: DbBenchTask = {
  index: 0,
  description: 'Which circuit hosted the round where Takashi Kogure got the fastest lap?',
  addDescription: 'The name of this table is Race Results, and the headers of this table are Round,Circuit,Fastest Lap.',
  type: 'other',
  kind: 'query',
  label: ['GROUND-TRUTH-LABEL'],
  table: { name: 'Race Results', columns: ['Round', 'Circuit', 'Fastest Lap'], rows: [] },
};
const mutationTask: DbBenchTask = {
  ...queryTask,
  description: "Change the source for soybean production statistics to 'USDA' in the Statistics table.",
  type: 'UPDATE',
  kind: 'mutation',
  table: { name: 'Statistics', columns: ['Name', 'Source'], rows: [] },
};

const all = () => composePatch([...SIGNATURE_IDS]);
const only = (...ids: SignatureId[]) => composePatch(ids);

describe('the hooks at runtime, with the real DBBench ctx', () => {
  it('on_init returns the skills and the checklist tool hint', async () => {
    const d = await Driver.open(only('repeated_sql', 'commit_before_sql'), queryTask);
    const init = await d.init();
    expect(init?.skills).toHaveLength(2);
    expect(init?.skills[0]).toMatch(/same query/);
    expect(init?.toolHint).toMatch(/^SQL checklist: run SQL on the table before committing; never send the same query twice in a row\.$/);
  });

  it('blocks a commit before any SQL twice, then lets it through', async () => {
    const d = await Driver.open(only('commit_before_sql'), queryTask);
    await d.init();
    await d.next();
    expect(await d.commit(['Fuji'])).toMatch(/No SQL has been run yet/);
    expect(await d.commit(['Fuji'])).toMatch(/No SQL has been run yet/);
    expect(await d.commit(['Fuji'])).toBeUndefined();
  });

  it('blocks a bare multi-word table name, then hints after the error it caused', async () => {
    const d = await Driver.open(all(), queryTask);
    await d.init();
    expect(await d.next()).toBeUndefined();
    expect(await d.sql('SELECT * FROM Race Results', '')).toMatch(/without backticks.*`Race Results`/);
    expect(await d.sql('SELECT * FROM Race_Results', '')).toMatch(/without backticks/);
    // Capped at two blocks: the third attempt runs, fails, and the next round gets the quoting hint once.
    expect(await d.sql('SELECT * FROM Race_Results', "1146 (42S02): Table 'dbbench.Race_Results' doesn't exist")).toBeUndefined();
    expect(await d.next()).toMatch(/wrapped in backticks exactly as listed, for example `Race Results`/);
    expect(await d.next()).toBeUndefined();
    // A commit right after the error is blocked as giving up.
    expect(await d.commit([])).toMatch(/returned an error/);
    expect(await d.sql('SELECT `Circuit` FROM `Race Results`', "[('Fuji Speedway',)]")).toBeUndefined();
    expect(await d.commit(['Fuji Speedway'])).toBeUndefined();
  });

  it('blocks the same statement sent again and hints about the loop', async () => {
    const d = await Driver.open(only('repeated_sql'), queryTask);
    await d.init();
    await d.next();
    expect(await d.sql('SELECT `Circuit` FROM `Race Results`', "[('Fuji Speedway',)]")).toBeUndefined();
    await d.next();
    expect(await d.sql('select `Circuit`  from `Race Results`;', "[('Fuji Speedway',)]")).toMatch(/exact query was just run/);
    expect(await d.sql('SELECT `Round` FROM `Race Results`', "[('1',)]")).toBeUndefined();
  });

  it('blocks an empty commit on a question but not on a data change', async () => {
    const q = await Driver.open(only('empty_commit_on_question'), queryTask);
    await q.init();
    await q.next();
    await q.sql('SELECT `Circuit` FROM `Race Results`', "[('Fuji Speedway',)]");
    expect(await q.commit([])).toMatch(/empty answer list/);
    expect(await q.commit(['', ' '])).toMatch(/empty answer list/);
    const m = await Driver.open(only('empty_commit_on_question'), mutationTask);
    await m.init();
    await m.next();
    await m.sql("UPDATE `Statistics` SET `Source` = 'USDA'", '[]');
    expect(await m.commit([])).toBeUndefined();
  });

  it('blocks a data-change commit with no write, and reminds to write after inspecting', async () => {
    const d = await Driver.open(only('mutation_without_write'), mutationTask);
    await d.init();
    await d.next();
    await d.sql('DESCRIBE `Statistics`', "[('Name', 'text', 'YES', '', None, '')]");
    expect(await d.commit([])).toMatch(/no INSERT, UPDATE or DELETE/);
    await d.sql('SELECT * FROM `Statistics`', "[('Soybean', 'x')]");
    expect(await d.next()).toMatch(/execute the INSERT, UPDATE or DELETE statement itself/);
    expect(await d.sql("UPDATE `Statistics` SET `Source` = 'USDA'", '[]')).toBeUndefined();
    expect(await d.commit([])).toBeUndefined();
  });

  it('blocks a write whose literal lost the capitals of the question, once', async () => {
    const d = await Driver.open(only('literal_altered'), mutationTask);
    await d.init();
    await d.next();
    const spoiled = "UPDATE `Statistics` SET `Source` = 'usda' WHERE `Name` = 'Soybean production'";
    expect(await d.sql(spoiled, '[]')).toMatch(/not written the way the question writes it/);
    expect(await d.sql(spoiled, '[]')).toBeUndefined();
    const n = await Driver.open(only('literal_altered'), { ...mutationTask, description: 'In 1971, Kauai King, age 4, was trained by Henry Forrest; the count is 7.400.' });
    await n.init();
    await n.next();
    expect(await n.sql("INSERT INTO `Statistics` VALUES ('1971', 'Kauai King', '4', 'Henry Forrest', '7.400')", '[]')).toBeUndefined();
    expect(await n.sql("INSERT INTO `Statistics` VALUES ('1971', 'Kauai King', '4', 'Henry Forrest', '7.4')", '[]')).toMatch(/not written the way/);
  });

  it('blocks a committed value in another case than the result, or wrapped in words, once', async () => {
    const d = await Driver.open(only('literal_altered'), queryTask);
    await d.init();
    await d.next();
    await d.sql('SELECT `Circuit` FROM `Race Results`', "[('Fuji Speedway',), ('Suzuka',)]");
    expect(await d.commit(['fuji speedway'])).toMatch(/exactly as the query returned it/);
    expect(await d.commit(['fuji speedway'])).toBeUndefined();
    const e = await Driver.open(only('literal_altered'), queryTask);
    await e.init();
    await e.next();
    await e.sql('SELECT `Circuit` FROM `Race Results`', "[('Fuji Speedway',)]");
    expect(await e.commit(['Fuji Speedway'])).toBeUndefined();
    expect(await e.commit(['The answer is Fuji Speedway'])).toMatch(/no extra words/);
  });

  it('hints after an unknown column and after an empty SELECT; blocks the commit after an empty SELECT once', async () => {
    const d = await Driver.open(only('unknown_column', 'empty_result_commit'), queryTask);
    await d.init();
    await d.next();
    await d.sql('SELECT Fastest_Lap FROM `Race Results`', "1054 (42S22): Unknown column 'Fastest_Lap' in 'field list'");
    expect(await d.next()).toMatch(/column does not exist/);
    await d.sql("SELECT `Circuit` FROM `Race Results` WHERE `Fastest Lap` = 'takashi kogure'", '[]');
    expect(await d.next()).toMatch(/returned no rows/);
    expect(await d.commit(['x'])).toMatch(/returned no rows/);
    expect(await d.commit(['x'])).toBeUndefined();
  });

  it('hints after a text-only turn, at most twice and three rounds apart', async () => {
    const d = await Driver.open(only('text_only_turns'), queryTask);
    await d.init();
    const seen: (string | undefined)[] = [];
    for (let i = 0; i < 8; i++) {
      seen.push(await d.next());
      d.st.noteTextOnlyTurn();
    }
    expect(seen.map((m) => (m === undefined ? '-' : 'H')).join('')).toBe('-H--H---');
  });

  it('the soft-hint patch reminds in the last rounds only', async () => {
    const d = await Driver.open(composeSoftPatch(), queryTask);
    const init = await d.init();
    expect(init?.skills.length).toBeGreaterThan(0);
    d.st.updateAfterSql('SELECT 1', "[('1',)]");
    const hints: (string | undefined)[] = [];
    for (let i = 0; i < 20; i++) hints.push(await d.next());
    expect(hints.findIndex((h) => h !== undefined)).toBe(18);
    expect(hints.filter((h) => h !== undefined)).toHaveLength(1);
  });
});

import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';

import { afterAll, describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../src/config/data-dir.js';
import { PROJECT_ROOT, runCli } from './cli-helpers.js';

const root = mkdtempSync(path.join(tmpdir(), 'harness-data-files-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const shared = resolveDataDir();
const fixtures = path.join(PROJECT_ROOT, 'test', 'fixtures', 'data-files');
const ownTasks = path.join(fixtures, 'dbbench-own-tasks.jsonl');
const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const records = (dir: string) =>
  readFileSync(path.join(dir, 'episodes.jsonl'), 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { task: { split: string; index: number }; outcome: string; messages: { role: string; content: string | null }[]; detail: Record<string, unknown> });

/**
 * A data folder that is the shared one except for the files given: everything else is symlinked, the
 * given files are written (nothing of the shared data is copied into the repository).
 */
function dataDirWith(name: string, files: Record<string, Buffer | string>): string {
  const dir = path.join(root, name);
  const link = (rel: string) => {
    const from = path.join(shared, rel);
    const to = path.join(dir, rel);
    const replaced = Object.keys(files).filter((f) => f === rel || f.startsWith(`${rel}/`));
    if (replaced.length === 0) {
      mkdirSync(path.dirname(to), { recursive: true });
      symlinkSync(from, to);
      return;
    }
    if (replaced.includes(rel)) {
      mkdirSync(path.dirname(to), { recursive: true });
      writeFileSync(to, files[rel]!);
      return;
    }
    for (const entry of readdirSync(from)) link(path.join(rel, entry));
  };
  for (const entry of readdirSync(shared)) link(entry);
  return dir;
}

describe('task files and splits (real CLI)', () => {
  it('run --data plays a DBBench task file, records it by path and sha256, and refuses to resume on an edited file', async () => {
    const file = path.join(root, 'tasks.jsonl');
    copyFileSync(ownTasks, file);
    const dir = path.join(root, 'dbbench-file');
    const args = ['run', '--bench', 'dbbench', '--data', file, '--target', 'sim:dbbench?seed=2', '--run-dir', dir];
    const r = await runCli([...args, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { tasks: { index: number }[] };
    expect(out.tasks.map((t) => t.index)).toEqual([0, 1, 2]);
    const manifest = readJson<{ split: string; options: { dataFile: unknown } }>(path.join(dir, 'run.json'));
    expect(manifest.split).toBe('file:tasks.jsonl');
    expect(manifest.options.dataFile).toEqual({ path: file, sha256: sha256(ownTasks) });
    const played = records(dir);
    expect(played.map((p) => p.task.split)).toEqual(['file:tasks.jsonl', 'file:tasks.jsonl', 'file:tasks.jsonl']);
    // The simulated target knows the file's tasks: it answers them, not "this question is not in the task files".
    expect(played.every((p) => p.outcome !== 'invalid_action' && !JSON.stringify(p.messages).includes('not in the DBBench task files'))).toBe(true);
    expect(JSON.stringify(played[2]!.messages)).toContain('How many kilograms of apples were picked in total?');

    // The same three tasks, one of them reworded: another file for the run, though its name and size are the same.
    writeFileSync(file, readFileSync(ownTasks, 'utf8').replace('How many lighthouses', 'How many of the lighthouses'));
    const resumed = await runCli([...args, '--resume']);
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toMatch(/Cannot resume .*options\.dataFile/);
  }, 120_000);

  it('a bad line in standard.jsonl breaks only the standard split, and names file:line', async () => {
    const good = readFileSync(path.join(shared, 'dbbench', 'standard.jsonl'), 'utf8').split('\n');
    const data = dataDirWith('bad-standard', { 'dbbench/standard.jsonl': [...good.slice(0, 3), '{"description": "cut', ...good.slice(3)].join('\n') });
    const dev = await runCli(['run', '--bench', 'dbbench', '--split', 'dev', '--tasks', '0:3', '--target', 'sim:dbbench', '--data-dir', data, '--run-dir', path.join(root, 'dev-ok')]);
    expect(dev.code, dev.stderr).toBe(0);
    expect(records(path.join(root, 'dev-ok')).every((r) => r.outcome !== 'invalid_action')).toBe(true);
    const standard = await runCli(['run', '--bench', 'dbbench', '--split', 'standard', '--tasks', '0:3', '--target', 'sim:dbbench', '--data-dir', data, '--run-dir', path.join(root, 'std-bad')]);
    expect(standard.code).toBe(2);
    expect(standard.stderr).toContain(`${path.join(data, 'dbbench', 'standard.jsonl')}:4: not valid JSON`);
    const own = await runCli(['run', '--bench', 'dbbench', '--data', path.join(fixtures, 'dbbench-bad-line.jsonl'), '--target', 'sim:dbbench', '--run-dir', path.join(root, 'own-bad')]);
    expect(own.code).toBe(2);
    expect(own.stderr).toMatch(/dbbench-bad-line\.jsonl:2: not valid JSON/);
  }, 120_000);

  it('a split with unshipped games says how many and which, on stderr, in run.json and in --json', async () => {
    const dir = path.join(root, 'new-std');
    const r = await runCli(['run', '--bench', 'alfworld', '--split', 'new_std', '--tasks', '0:2', '--target', 'sim:alfworld', '--run-dir', dir, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/notice: alfworld new_std lists 109 games; 16 are not shipped with the data and are not played \(task indices count the 93 shipped games\): json_2\.1\.1\/valid_unseen\//);
    const unshipped = readJson<{ data: { unshipped: { count: number; listed: number; ids: string[] } } }>(path.join(dir, 'run.json')).data.unshipped;
    expect([unshipped.count, unshipped.listed, unshipped.ids.length]).toEqual([16, 109, 16]);
    expect(unshipped.ids.every((id) => id.startsWith('json_2.1.1/valid_unseen/'))).toBe(true);
    expect((JSON.parse(r.stdout) as { data: unknown }).data).toEqual({ unshipped });
    const human = await runCli(['run', '--bench', 'alfworld', '--split', 'new_std', '--tasks', '0:1', '--target', 'sim:alfworld', '--run-dir', path.join(root, 'new-std-text')]);
    expect(human.stdout).toMatch(/not played: 16 of the 109 games of new_std are not shipped with the data/);
    const dev = await runCli(['run', '--bench', 'alfworld', '--split', 'dev', '--tasks', '0:1', '--target', 'sim:alfworld', '--run-dir', path.join(root, 'dev-all-shipped')]);
    expect(dev.stderr).not.toMatch(/notice:/);
    expect(readJson<{ data?: unknown }>(path.join(root, 'dev-all-shipped', 'run.json')).data).toBeUndefined();
  }, 120_000);

  it('run --games plays a games file; a bad line in one games file breaks only the splits that use it', async () => {
    const shippedTrain = gunzipSync(readFileSync(path.join(shared, 'alfworld', 'games', 'valid_train.jsonl.gz'))).toString('utf8').split('\n').filter((l) => l !== '');
    // Three shipped games under ids of our own, so they are not taken for shipped ones.
    const mine = shippedTrain.slice(0, 3).map((l) => {
      const g = JSON.parse(l) as { id: string };
      return JSON.stringify({ ...g, id: g.id.replace('/valid_train/', '/my_games/') });
    });
    const gamesFile = path.join(root, 'my-games.jsonl');
    writeFileSync(gamesFile, `${mine.join('\n')}\n`);
    const dir = path.join(root, 'games-file');
    const r = await runCli(['run', '--bench', 'alfworld', '--games', gamesFile, '--target', 'sim:alfworld?seed=1', '--run-dir', dir]);
    expect(r.code, r.stderr).toBe(0);
    const played = records(dir);
    expect(played.map((p) => [p.task.split, p.detail.gameId])).toEqual(mine.map((l) => ['file:my-games.jsonl', (JSON.parse(l) as { id: string }).id]));
    expect(played.filter((p) => p.outcome === 'success').length).toBeGreaterThan(0);
    expect(readJson<{ options: { dataFile: { sha256: string } } }>(path.join(dir, 'run.json')).options.dataFile.sha256).toBe(sha256(gamesFile));

    const broken = gzipSync(`${[shippedTrain[0], '{"id": "json_2.1.1/valid_train/cut', ...shippedTrain.slice(1)].join('\n')}\n`);
    const data = dataDirWith('bad-train-games', { 'alfworld/games/valid_train.jsonl.gz': broken });
    const dev = await runCli(['run', '--bench', 'alfworld', '--split', 'dev', '--tasks', '0:2', '--target', 'sim:alfworld', '--data-dir', data, '--run-dir', path.join(root, 'alf-dev-ok')]);
    expect(dev.code, dev.stderr).toBe(0);
    const badGames = path.join(root, 'bad-games.jsonl');
    writeFileSync(badGames, `${mine[0]}\n{"id": \n`);
    const bad = await runCli(['run', '--bench', 'alfworld', '--games', badGames, '--target', 'sim:alfworld', '--run-dir', path.join(root, 'alf-bad')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`${badGames}:2: not valid JSON`);
  }, 180_000);

  it('run --data plays a WebShop goals file of human instructions', async () => {
    const dir = path.join(root, 'webshop-goals');
    const r = await runCli(['run', '--bench', 'webshop', '--data', path.join(fixtures, 'webshop-own-goals.json'), '--target', 'sim:webshop', '--run-dir', dir, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const played = records(dir);
    // Four instructions, one without attributes (WebShop skips those): three goals, in the seed-233 order.
    expect(played).toHaveLength(3);
    const firstUser = played.map((p) => p.messages.find((m) => m.role === 'user')?.content ?? '');
    expect(firstUser.some((t) => t.includes('find me a sulfate free shampoo that helps damaged hair'))).toBe(true);
    expect(firstUser.some((t) => t.includes('i want a console table made of solid wood for my hallway'))).toBe(true);
    expect(played.filter((p) => p.outcome === 'success').length).toBeGreaterThan(0);
    expect(readJson<{ split: string }>(path.join(dir, 'run.json')).split).toBe('file:webshop-own-goals.json');
  }, 120_000);

  it('demo and improve take --data / --games; a baseline is never reused for another file', async () => {
    const dir = path.join(root, 'demo-file');
    const demo = await runCli(['demo', '--data', ownTasks, '--run-dir', dir, '--json']);
    expect(demo.code, demo.stderr).toBe(0);
    const out = JSON.parse(demo.stdout) as { summary: { totals: { tasks: number }; split: string } };
    expect(out.summary.totals.tasks).toBe(3);
    expect(out.summary.split).toBe('file:dbbench-own-tasks.jsonl');
    expect(readJson<{ options: { dataFile: { sha256: string } } }>(path.join(dir, 'baseline', 'run.json')).options.dataFile.sha256).toBe(sha256(ownTasks));

    const other = path.join(root, 'other-tasks.jsonl');
    writeFileSync(other, readFileSync(ownTasks, 'utf8').split('\n').reverse().join('\n'));
    const improve = await runCli(['improve', '--bench', 'dbbench', '--data', other, '--tasks', '0:3', '--target', 'sim:dbbench?seed=1', '--run-dir', dir]);
    expect(improve.code).toBe(2);
    expect(improve.stderr).toMatch(/Cannot continue .*different settings:[\s\S]*split: "file:dbbench-own-tasks\.jsonl" → "file:other-tasks\.jsonl"[\s\S]*options\.dataFile/);

    const games = path.join(root, 'demo-games.jsonl');
    const shippedUnseen = readFileSync(path.join(shared, 'alfworld', 'games', 'valid_unseen.jsonl'), 'utf8').split('\n').filter((l) => l !== '');
    writeFileSync(games, `${shippedUnseen.slice(0, 4).join('\n')}\n`);
    const alf = await runCli(['demo', '--bench', 'alfworld', '--games', games, '--run-dir', path.join(root, 'demo-games'), '--json']);
    expect(alf.code, alf.stderr).toBe(0);
    expect((JSON.parse(alf.stdout) as { summary: { totals: { tasks: number } } }).summary.totals.tasks).toBe(4);
  }, 300_000);

  it.each([
    [['run', '--bench', 'dbbench', '--split', 'standard', '--data', ownTasks, '--target', 'sim:dbbench'], /--data FILE is played instead of a split; give it or --split, not both/],
    [['run', '--bench', 'dbbench', '--games', ownTasks, '--target', 'sim:dbbench'], /--games applies to alfworld only, not dbbench; dbbench plays a task file with --data FILE/],
    [['run', '--bench', 'alfworld', '--data', ownTasks, '--target', 'sim:alfworld'], /--data applies to dbbench, webshop only, not alfworld; alfworld plays a task file with --games FILE/],
    [['run', '--bench', 'dbbench', '--data', path.join(root, 'nope.jsonl'), '--target', 'sim:dbbench'], /--data .*nope\.jsonl: cannot read it/],
    [['run', '--bench', 'webshop', '--data', path.join(fixtures, 'webshop-own-goals.json'), '--goals', 'synthetic', '--target', 'sim:webshop'], /holds human instructions; it cannot be played with --goals synthetic/],
    [['run', '--bench', 'alfworld', '--split', 'train_valid', '--target', 'sim:alfworld'], /alfworld train_valid: none of its 3150 games is shipped with the data/],
  ])('exits 2 with a clear message for %j', async (args, message) => {
    const r = await runCli([...args, '--run-dir', path.join(root, `refused-${Math.random().toString(36).slice(2)}`)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});

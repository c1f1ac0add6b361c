import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { runCli } from './cli-helpers.js';

// Patch generation split from the rerun, as a user runs it: `improve --generate-only` writes the patches,
// `improve --patch-source` scores them later, and the scores are those of one plain `improve`.

const root = mkdtempSync(path.join(os.tmpdir(), 'harness-generate-only-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const SLICE = ['improve', '--bench', 'dbbench', '--tasks', '0:6', '--batch-size', '2', '--target', 'sim:dbbench?seed=2', '--concurrency', '2'];
const STACK = /^\s+at /m;
const gen = path.join(root, 'gen');
const patches = path.join(gen, 'patches');
const replayed = path.join(root, 'replayed');
const played = path.join(root, 'played');

interface Summary {
  generateOnly?: boolean;
  batches: { tag: string; status: string; score: number; patchedPass: number | null; rescued: number[]; regressed: number[]; baselinePass: number }[];
  totals: { meanScore: number; scored: number; byStatus: Record<string, number> };
}
const parse = (stdout: string) => JSON.parse(stdout) as { runDir: string; generateOnly?: boolean; patches?: string; patchSource?: { dir: string; digest: string; missing: string[] }; summary: Summary };
const rows = (s: Summary) => s.batches.map((b) => ({ tag: b.tag, status: b.status, score: b.score, patchedPass: b.patchedPass, rescued: b.rescued, regressed: b.regressed }));

describe('improve --generate-only, then improve --patch-source (real CLI processes)', () => {
  let generated: string[] = [];

  it('generates and validates patches without any rerun or reward, in the layout --patch-source reads', async () => {
    const r = await runCli([...SLICE, '--generate-only', '--run-dir', gen, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = parse(r.stdout);
    expect(out).toMatchObject({ generateOnly: true, patches });
    expect(out.summary.generateOnly).toBe(true);
    generated = out.summary.batches.filter((b) => b.status === 'generated').map((b) => b.tag);
    expect(generated.length).toBeGreaterThan(0);
    expect(out.summary.totals.scored).toBe(0);
    expect(out.summary.batches.every((b) => b.patchedPass === null && b.score === 0)).toBe(true);
    expect(existsSync(path.join(gen, 'reruns'))).toBe(false);
    expect(readdirSync(patches).sort()).toEqual(generated);
    for (const tag of generated) {
      // The validated patch, byte for byte the batch's own patch.json.
      expect(readFileSync(path.join(patches, tag, 'dbbench.json'), 'utf8')).toBe(readFileSync(path.join(gen, 'batches', tag, 'patch.json'), 'utf8'));
      expect(JSON.parse(readFileSync(path.join(gen, 'batches', tag, 'result.json'), 'utf8'))).toMatchObject({ status: 'generated', validPatch: true, rerun: null, patched: null });
    }
    expect(JSON.parse(readFileSync(path.join(gen, 'improve.json'), 'utf8'))).toMatchObject({ generateOnly: true, engineer: 'symbolic' });

    const text = await runCli([...SLICE, '--generate-only', '--run-dir', gen]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`generate-only run: ${generated.length} of ${out.summary.batches.length} batch(es) generated a valid patch; nothing was rerun and no reward was computed`);
    expect(text.stdout).not.toMatch(/mean batch reward/);
  }, 600_000);

  it('refuses to continue the generate-only directory without the flag, writing nothing', async () => {
    const before = readFileSync(path.join(gen, 'summary.json'), 'utf8');
    const r = await runCli([...SLICE, '--run-dir', gen]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Cannot continue .*gen: it was started with different settings/);
    expect(r.stderr).toContain('generateOnly: true → (unset)');
    expect(r.stderr).not.toMatch(STACK);
    expect(readFileSync(path.join(gen, 'summary.json'), 'utf8')).toBe(before);
    expect(existsSync(path.join(gen, 'reruns'))).toBe(false);
  }, 300_000);

  it('scores the generated patches exactly as one plain improve on the same slice does', async () => {
    const r = await runCli([...SLICE, '--patch-source', patches, '--run-dir', replayed, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = parse(r.stdout);
    const plain = await runCli([...SLICE, '--run-dir', path.join(root, 'plain'), '--json']);
    expect(plain.code, plain.stderr).toBe(0);
    const reference = parse(plain.stdout).summary;
    expect(reference.totals.scored).toBeGreaterThan(0);
    expect(rows(out.summary)).toEqual(rows(reference));
    expect(out.summary.totals.meanScore).toBe(reference.totals.meanScore);
    // Batches without a generated patch get none (here: those with nothing to repair).
    const missing = reference.batches.map((b) => b.tag).filter((t) => !generated.includes(t));
    expect(out.patchSource).toMatchObject({ dir: patches, missing });
    if (missing.length > 0) expect(r.stderr).toContain(`patch source: no dbbench.json for ${missing.join(', ')}`);
    expect(JSON.parse(readFileSync(path.join(replayed, 'improve.json'), 'utf8'))).toMatchObject({ engineer: '(patch source)', patchSource: patches, patchSourceDigest: out.patchSource!.digest });
  }, 600_000);

  it('run --patch-source plays each batch of the tasks with its patch: the records of improve\'s reruns', async () => {
    const r = await runCli(['run', '--bench', 'dbbench', '--tasks', '0:6', '--batch-size', '2', '--target', 'sim:dbbench?seed=2', '--concurrency', '2', '--patch-source', patches, '--run-dir', played, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { patch: unknown; patchSource: { dir: string; batchSize: number; batches: { tag: string; tasks: number[]; patch: { file: string } | null }[] }; tasks: { index: number; reward: number; outcome: string }[] };
    expect(out.patch).toBeNull();
    expect(out.patchSource).toMatchObject({ dir: patches, batchSize: 2 });
    expect(out.patchSource.batches.map((b) => [b.tag, b.tasks, b.patch?.file ?? null])).toEqual(
      [[0, 1], [2, 3], [4, 5]].map((tasks, i) => {
        const tag = `batch_00${i}`;
        return [tag, tasks, generated.includes(tag) ? path.join(patches, tag, 'dbbench.json') : null];
      }),
    );
    // A patched batch's episodes are those of improve's rerun of the same patch; the others, the baseline's.
    const episodes = (dir: string) => readFileSync(path.join(dir, 'episodes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { task: { index: number }; reward: number; outcome: string });
    const plain = path.join(root, 'plain');
    const reruns = readdirSync(path.join(plain, 'reruns')).flatMap((k) => episodes(path.join(plain, 'reruns', k)));
    const expected = new Map([...episodes(path.join(plain, 'baseline')), ...reruns].map((e) => [e.task.index, [e.outcome, e.reward]]));
    for (const t of out.tasks) expect([t.outcome, t.reward], `task ${t.index}`).toEqual(expected.get(t.index));
    expect(reruns.length).toBeGreaterThan(0);

    const both = await runCli(['run', '--bench', 'dbbench', '--tasks', '0:2', '--target', 'sim:dbbench', '--patch-source', patches, '--patch', path.join(patches, generated[0]!, 'dbbench.json')]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--patch and --patch-source exclude each other');
    const size = await runCli(['run', '--bench', 'dbbench', '--tasks', '0:2', '--target', 'sim:dbbench', '--batch-size', '2']);
    expect(size.code).toBe(2);
    expect(size.stderr).toContain('--batch-size cuts the tasks into the batches of --patch-source');
  }, 600_000);

  it('refuses a patch file changed between two plays of the same run directory', async () => {
    const before = readFileSync(path.join(replayed, 'summary.json'), 'utf8');
    const file = path.join(patches, generated[0]!, 'dbbench.json');
    const patch = JSON.parse(readFileSync(file, 'utf8')) as { description: string };
    writeFileSync(file, `${JSON.stringify({ ...patch, description: `${patch.description} (edited)` }, null, 2)}\n`);
    const r = await runCli([...SLICE, '--patch-source', patches, '--run-dir', replayed]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/patchSourceDigest: "[0-9a-f]{64}" → "[0-9a-f]{64}"/);
    expect(r.stderr).not.toMatch(STACK);
    expect(readFileSync(path.join(replayed, 'summary.json'), 'utf8')).toBe(before);
    const records = readFileSync(path.join(played, 'episodes.jsonl'), 'utf8');
    const resumed = await runCli(['run', '--bench', 'dbbench', '--tasks', '0:6', '--batch-size', '2', '--target', 'sim:dbbench?seed=2', '--patch-source', patches, '--run-dir', played, '--resume']);
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toMatch(/Cannot resume .* different settings .*patchSource/);
    expect(readFileSync(path.join(played, 'episodes.jsonl'), 'utf8')).toBe(records);
  }, 300_000);

  it('usage errors before any work: --engineer with --patch-source, and a folder with no patch for the run', async () => {
    const both = path.join(root, 'both');
    const r = await runCli([...SLICE, '--patch-source', patches, '--engineer', 'symbolic', '--run-dir', both]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--engineer and --patch-source exclude each other');
    expect(existsSync(both)).toBe(false);

    const empty = path.join(root, 'other-patches');
    const none = path.join(root, 'none');
    const e = await runCli([...SLICE, '--patch-source', empty, '--run-dir', none]);
    expect(e.code).toBe(2);
    expect(e.stderr).toContain('no such folder');
    const wrong = await runCli([...SLICE, '--patch-source', gen, '--run-dir', none]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain(`--patch-source ${gen} holds no patch for any batch of this run: expected batch_000/dbbench.json, batch_001/dbbench.json, batch_002/dbbench.json; found `);
    expect(wrong.stderr).not.toMatch(STACK);
    expect(existsSync(none)).toBe(false);

    const mixed = await runCli([...SLICE, '--patch-source', patches, '--generate-only', '--run-dir', none]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain('--generate-only and --patch-source exclude each other');
  }, 300_000);
});

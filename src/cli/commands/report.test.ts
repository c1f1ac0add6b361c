import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';

import { Command } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';

import type { EpisodeRecord } from '../../episode/index.js';
import { registerReportCommand, reportCommand } from './report.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function makeRun(simulated: boolean): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'report-cli-'));
  dirs.push(root);
  const run = path.join(root, 'my-run');
  mkdirSync(run);
  const record = (index: number, reward: number): EpisodeRecord => ({
    schemaVersion: 2,
    task: { bench: 'dbbench', split: 'dev', index },
    attempt: 1,
    outcome: reward >= 1 ? 'success' : 'wrong_answer',
    reward,
    rounds: 1,
    detail: { type: 'counting' },
    steps: [{ round: 1, tool: 'commit_final_answer', input: ['1'], observation: '', status: 'executed' }],
    hookTrace: [],
    messages: [],
    usage: { promptTokens: 1, completionTokens: 1, modelCalls: 1 },
  });
  writeFileSync(
    path.join(run, 'run.json'),
    JSON.stringify({
      schemaVersion: 1, runId: 'my-run', createdAt: '2026-01-01T00:00:00.000Z', bench: 'dbbench', split: 'dev', taskIndices: [0, 1],
      target: { spec: 'sim:dbbench', label: 'sim:dbbench (simulated target)', simulated }, patch: null, options: {},
    }),
  );
  writeFileSync(path.join(run, 'episodes.jsonl'), `${JSON.stringify(record(0, 1))}\n${JSON.stringify(record(1, 0))}\n`);
  return run;
}

function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (d: Buffer) => (text += d.toString()));
  return { stream, text: () => text };
}

describe('reportCommand', () => {
  it('writes <run>/report.html by default and prints its path, saying when results are simulated', async () => {
    const run = makeRun(true);
    const out = capture();
    const result = await reportCommand({ run }, out.stream);
    expect(result).toEqual({ code: 0, file: path.join(run, 'report.html') });
    expect(out.text()).toBe(`${path.join(run, 'report.html')}  (SIMULATED TARGET)\n`);
    const page = readFileSync(result.file, 'utf8');
    expect(page).toContain('data-metric="success">1/2 (50.0%)');
    expect(page).toContain('<svg');
  });

  it('writes where --out says, creating the folder', async () => {
    const run = makeRun(false);
    const target = path.join(path.dirname(run), 'reports', 'r.html');
    const out = capture();
    const result = await reportCommand({ run, out: target }, out.stream);
    expect(result.file).toBe(target);
    expect(out.text()).toBe(`${target}\n`);
    expect(existsSync(path.join(run, 'report.html'))).toBe(false);
    expect(readFileSync(target, 'utf8')).not.toContain('SIMULATED');
  });

  it('reports usage errors as config errors (exit 2) naming what is wrong', async () => {
    const run = makeRun(true);
    await expect(reportCommand({ run: path.join(run, 'missing') })).rejects.toMatchObject({ code: 'config_error', message: expect.stringMatching(/Run directory not found/) });
    await expect(reportCommand({ run: '' })).rejects.toMatchObject({ code: 'config_error' });
    writeFileSync(path.join(run, 'run.json'), '{');
    await expect(reportCommand({ run })).rejects.toMatchObject({ code: 'config_error', file: path.join('my-run', 'run.json'), problem: 'invalid_json' });
  });

  it('registers `report <run> [--out file] [--open]`', async () => {
    const run = makeRun(true);
    const program = new Command().exitOverride();
    registerReportCommand(program);
    const out = path.join(path.dirname(run), 'cli.html');
    const write = process.stdout.write;
    process.stdout.write = (() => true) as typeof process.stdout.write;
    try {
      await program.parseAsync(['report', run, '--out', out], { from: 'user' });
    } finally {
      process.stdout.write = write;
    }
    expect(existsSync(out)).toBe(true);
    expect(program.commands.find((c) => c.name() === 'report')?.options.map((o) => o.long)).toEqual(['--out', '--open']);
  });
});

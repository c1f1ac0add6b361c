import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { startFakeOpenAIServer, scripted } from '../../src/models/fake-openai-server.js';
import { runCli } from './cli-helpers.js';
import { resolveDataDir } from '../../src/config/data-dir.js';

const DATA = resolveDataDir();
const tmp = mkdtempSync(path.join(tmpdir(), 'harness-tools-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('harness-r1 env check dbbench', () => {
  it('replays the gold solutions of a task file on SQLite and lists the misses', async () => {
    const r = await runCli(['env', 'check', 'dbbench', '--data', path.join(DATA, 'dbbench', 'standard.jsonl')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^199\/200 reproduced \(sqlite/);
    expect(r.stdout).toMatch(/miss #225/);
  });

  it.skipIf(!process.env.HARNESS_MARIADB_DSN)('does the same on MariaDB (HARNESS_MARIADB_DSN)', async () => {
    const r = await runCli(['env', 'check', 'dbbench', '--data', path.join(DATA, 'dbbench', 'dev.jsonl'), '--backend', 'mariadb', '--dsn', process.env.HARNESS_MARIADB_DSN!]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^40\/40 reproduced \(mariadb/);
  });

  it('exits 2 for a missing file or an unknown benchmark', async () => {
    expect((await runCli(['env', 'check', 'dbbench', '--data', path.join(tmp, 'nope.jsonl')])).code).toBe(2);
    const unknown = await runCli(['env', 'check', 'swebench', '--data', 'x']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Allowed: dbbench, alfworld, webshop/);
    const noData = await runCli(['env', 'check', 'webshop', '--data', path.join(tmp, 'no-such-dir')]);
    expect(noData.code).toBe(2);
    expect(noData.stderr).toMatch(/WebShop data directory not found/);
  });

  it('names the line of a malformed task file', async () => {
    const file = path.join(tmp, 'bad.jsonl');
    writeFileSync(file, '{"description": "x", "type": ["counting"], "label": ["1"], "table": {"table_name": "t", "table_info": {"columns": [{"name": "a"}], "rows": [["1"]]}}}\n{oops\n');
    const r = await runCli(['env', 'check', 'dbbench', '--data', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad\.jsonl:2: not valid JSON/);
  });
});

describe('harness-r1 probe against a real HTTP server', () => {
  it('passes when the server returns structured tool calls', async () => {
    const server = await startFakeOpenAIServer(scripted([1, 2, 3].map(() => ({ kind: 'tool_calls' as const, calls: [{ name: 'lookup_weather', arguments: { city: 'Paris' } }] }))));
    try {
      const r = await runCli(['probe', '--model', `openai:${server.url}#fake-model`]);
      expect(r.code, r.stderr + r.stdout).toBe(0);
      expect(server.requests.filter((q) => q.path.endsWith('/chat/completions'))).toHaveLength(3);
    } finally {
      await server.close();
    }
  });

  it('fails with exit 1 and says how to fix a server that writes tool calls as text', async () => {
    const server = await startFakeOpenAIServer(scripted([1, 2, 3].map(() => ({ kind: 'tool_calls_as_text' as const, calls: [{ name: 'lookup_weather', arguments: { city: 'Paris' } }] }))));
    try {
      const r = await runCli(['probe', '--model', `openai:${server.url}#fake-model`]);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/tool-call-parser/);
    } finally {
      await server.close();
    }
  });
});

describe('harness-r1 validate', () => {
  it('accepts an original DBBench patch (exit 0) and rejects an import with the rule (exit 1)', async () => {
    const good = await runCli(['validate', path.join(DATA, 'patches', 'heldout_generalization', 'harness-r1', 'seed20260721', 'dbbench.json')]);
    expect(good.code, good.stderr).toBe(0);
    const file = path.join(tmp, 'import.json');
    writeFileSync(file, JSON.stringify({ benchmark: 'dbbench', actions: [{ type: 'add_code_hook', hook: 'on_init', code: 'import os\ndef hook(ctx, nb):\n    return None\n' }] }));
    const bad = await runCli(['validate', file, '--json']);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/forbidden syntax: Import/);
    expect((await runCli(['validate', path.join(tmp, 'missing.json')])).code).toBe(2);
  });

  it('refuses an invalid patch for a run with exit 2 before anything is played', async () => {
    const file = path.join(tmp, 'leak.json');
    writeFileSync(file, JSON.stringify({ benchmark: 'dbbench', description: 'fix task 3', actions: [{ type: 'add_code_hook', hook: 'on_init', code: 'def hook(ctx, nb):\n    return None\n' }] }));
    const r = await runCli(['run', '--bench', 'dbbench', '--tasks', '0:2', '--target', 'sim:dbbench', '--patch', file, '--run-dir', path.join(tmp, 'never')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is invalid: description.*leakage/);
  });
});

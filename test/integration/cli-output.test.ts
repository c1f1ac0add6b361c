import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { startFakeOpenAIServer, type FakeChatRequest, type FakeOpenAIServer } from '../../src/models/fake-openai-server.js';
import { runCli } from './cli-helpers.js';

const root = mkdtempSync(path.join(tmpdir(), 'harness-output-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ESC = '\u001b';

describe('terminal output of the real CLI (no TTY)', () => {
  it('run: no colour codes in a pipe, even with CI set; a long run shows a shortened task table and keeps the totals', async () => {
    const r = await runCli(
      ['run', '--bench', 'dbbench', '--split', 'dev', '--tasks', '0:30', '--target', 'sim:dbbench?seed=3', '--concurrency', '4', '--run-dir', path.join(root, 'run')],
      { CI: 'true', FORCE_COLOR: '' },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain(ESC);
    expect(r.stderr).not.toContain(ESC);
    const rows = r.stdout.split('\n').filter((line) => /^│ \d+ +│/.test(line));
    expect(rows).toHaveLength(20);
    expect(r.stdout).toContain('(20 of 30 tasks shown');
    expect(r.stdout).toMatch(/success: \d+\/29 /); // dev #5 is a permanent env_error, not scored
    // progress lines carry elapsed time and an estimate
    expect(r.stderr).toMatch(/\[30\/30\] task \d+: \w+ reward=[\d.]+ rounds=\d+ \(elapsed [^)]*, done\)/);
    expect(r.stderr).toMatch(/\[\d+\/30\] task \d+: .*ETA /);
  });

  it('run --tasks-table: every row', async () => {
    const r = await runCli(['run', '--bench', 'dbbench', '--split', 'dev', '--tasks', '0:25', '--target', 'sim:dbbench?seed=3', '--concurrency', '4', '--run-dir', path.join(root, 'full'), '--tasks-table']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n').filter((line) => /^│ \d+ +│/.test(line))).toHaveLength(25);
    expect(r.stdout).not.toContain('tasks shown');
  });

  it('improve: live progress of every stage on stderr (episodes done/total, successes, elapsed, ETA) and the reward named by its metric', async () => {
    const r = await runCli(['improve', '--bench', 'webshop', '--tasks', '0:10', '--batch-size', '5', '--target', 'sim:webshop?seed=1', '--run-dir', path.join(root, 'improve')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^baseline: 10\/10 episodes, successes \d+, elapsed [^,]+, done/m);
    expect(r.stderr).toMatch(/^baseline: \d\/10 episodes, successes \d+, elapsed [^,]+, ETA /m);
    expect(r.stderr).toMatch(/^b\w*: engineer$/m);
    expect(r.stderr).toMatch(/: done → \w+ \(2 batch\(es\) done/);
    expect(r.stdout).toContain('reward (Δ mean reward)');
    expect(r.stdout).toContain('mean batch reward (Δ mean reward)');
    expect(r.stdout).not.toMatch(/\d\.\d{6,}/); // no float noise
    expect(r.stdout + r.stderr).not.toContain(ESC);
  });
});

/** A hosted-API-like engineer server: refuses the prefill extensions with 400, answers a plain request with a full_think_patch answer. */
function strictEngineer(): Promise<FakeOpenAIServer> {
  const patch = JSON.stringify({
    benchmark: 'dbbench',
    description: 'Hint once after an unknown-column error.',
    actions: [{ type: 'add_code_hook', hook: 'on_post_step', code: 'def hook(ctx, nb):\n    if ctx.get("predicates", {}).get("unknown_column_error") and not nb.get("h"):\n        nb["h"] = True\n        return {"message": "Run DESCRIBE and copy the column names exactly."}\n    return None\n' }],
  });
  return startFakeOpenAIServer({
    models: ['engineer'],
    handler: (body: FakeChatRequest) =>
      'continue_final_message' in body || 'chat_template_kwargs' in body
        ? { kind: 'http_error', status: 400, body: { error: { message: 'Unrecognized request argument supplied: continue_final_message', type: 'invalid_request_error' } } }
        : { kind: 'text', content: `<think>\nOne hint.\n</think>\n<patch>\n${patch}\n</patch>` },
  });
}

describe('improve with an engineer server that refuses the prefill extensions (real CLI, real HTTP)', () => {
  it('auto: switches to full_think_patch, records why in the batch artifacts; prefill forced: the terminal names the refusal', async () => {
    const server = await strictEngineer();
    try {
      const dir = path.join(root, 'strict-auto');
      const common = ['improve', '--bench', 'dbbench', '--split', 'dev', '--tasks', '0:6', '--batch-size', '6', '--target', 'sim:dbbench?seed=2'];
      const auto = await runCli([...common, '--engineer', `openai:${server.url}#engineer`, '--run-dir', dir]);
      expect(auto.code, auto.stderr).toBe(0);
      expect(auto.stdout).not.toMatch(/engineer_request_failed/);
      const engineerJson = JSON.parse(readFileSync(path.join(dir, 'batches', 'batch_000', 'engineer.json'), 'utf8')) as { proposal: { protocol: string }; notes: string[] };
      expect(engineerJson.proposal.protocol).toBe('full_think_patch');
      expect(engineerJson.notes[0]).toMatch(/refused the prefill request \(HTTP 400/);

      const forced = await runCli([...common, '--engineer', `openai:${server.url}#engineer?engineer_protocol=prefill&attempts=1`, '--run-dir', path.join(root, 'strict-prefill')]);
      expect(forced.code, forced.stderr).toBe(0);
      expect(forced.stdout).toMatch(/engineer_request_failed_treated_as_no_patch/);
      expect(forced.stdout).toMatch(/^batch_000: engineer request failed: .*400.*continue_final_message/m);
    } finally {
      await server.close();
    }
  }, 300_000);
});

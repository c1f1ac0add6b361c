import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it, vi } from 'vitest';

import { main } from './main.js';

const root = mkdtempSync(path.join(tmpdir(), 'harness-config-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
function configFile(settings: Record<string, unknown>): string {
  const file = path.join(root, `config-${n++}.json`);
  writeFileSync(file, JSON.stringify(settings));
  return file;
}

/** Runs the CLI in this process and returns its exit code and what it wrote to stderr. */
async function cli(argv: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    const code = await main(argv);
    return { code, stderr };
  } finally {
    err.mockRestore();
    out.mockRestore();
    process.exitCode = undefined;
  }
}

describe('--config on the training-data and experiment commands: the file sets options, a flag wins', () => {
  it('splits', async () => {
    const fromFile = path.join(root, 'splits-file');
    const fromFlag = path.join(root, 'splits-flag');
    const config = configFile({ bench: 'dbbench', out: fromFile });
    expect((await cli(['splits', '--config', config, '--json'])).code).toBe(0);
    expect(JSON.parse(readFileSync(path.join(fromFile, 'manifest.json'), 'utf8'))).toMatchObject({ benchmark: 'dbbench' });
    rmSync(fromFile, { recursive: true });
    expect((await cli(['splits', '--config', config, '--out', fromFlag, '--json'])).code).toBe(0);
    expect(existsSync(path.join(fromFlag, 'manifest.json'))).toBe(true);
    expect(existsSync(fromFile)).toBe(false);
  }, 120_000);

  // A value the command refuses before playing anything shows which source it read.
  const cases: { name: string; argv: string[]; config: Record<string, unknown>; bad: Record<string, unknown>; flag: string[]; error: RegExp }[] = [
    {
      name: 'export rl', argv: ['export', 'rl'], config: { bench: 'dbbench', target: 'sim:dbbench', out: path.join(root, 'rl'), format: 'relax' },
      bad: { format: 'from-file' }, flag: ['--format', 'from-flag'], error: /Unknown --format '(from-\w+)'/,
    },
    {
      name: 'sample-group', argv: ['sample-group'], config: { row: path.join(root, 'none.jsonl:1') },
      bad: { row: 'from-file' }, flag: ['--row', 'from-flag'], error: /--row must be FILE:LINE \(1-based\), got '(from-\w+)'/,
    },
    {
      name: 'experiment heldout', argv: ['experiment', 'heldout'], config: { bench: 'dbbench', target: 'sim:dbbench', evidence: 10 },
      bad: { evidence: 'from-file' }, flag: ['--evidence', 'from-flag'], error: /--evidence.*'?(from-\w+)'?/,
    },
    {
      name: 'experiment ablation', argv: ['experiment', 'ablation'], config: { bench: 'dbbench', target: 'sim:dbbench', patch: 'p.json', repeats: 3 },
      bad: { repeats: 'from-file' }, flag: ['--repeats', 'from-flag'], error: /--repeats.*'?(from-\w+)'?/,
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const fromFile = await cli([...c.argv, '--config', configFile({ ...c.config, ...c.bad })]);
      expect(fromFile.code).toBe(2);
      expect(c.error.exec(fromFile.stderr)?.[1]).toBe('from-file');
      const flagWins = await cli([...c.argv, '--config', configFile(c.config), ...c.flag]);
      expect(flagWins.code).toBe(2);
      expect(c.error.exec(flagWins.stderr)?.[1]).toBe('from-flag');
    }, 60_000);
  }

  it('refuses a setting no command knows, naming the file', async () => {
    const r = await cli(['splits', '--config', configFile({ bench: 'dbbench', out: root, colour: 'blue' })]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown setting\(s\): colour/);
  });
});

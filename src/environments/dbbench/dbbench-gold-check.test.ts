import { describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../config/data-dir.js';
import type { DbBackend, DbSession, SqlOutcome } from './backend.js';
import { createDbBenchEnvironment } from './dbbench-environment.js';
import { loadDbBenchSplit } from './load-tasks.js';
import { createSqliteBackend } from './sqlite-backend.js';

/** A real (inline) SQLite backend whose statements wait until `open()` is called. */
function gatedBackend(): { backend: DbBackend; held: () => number; open: () => void } {
  const inner = createSqliteBackend({ isolation: 'inline' });
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let held = 0;
  const backend: DbBackend = {
    name: 'sqlite',
    async openEpisode(table, options) {
      const session = await inner.openEpisode(table, options);
      const gated: DbSession = {
        setupError: session.setupError ?? null,
        async execute(sql: string): Promise<SqlOutcome> {
          held += 1;
          await gate;
          return session.execute(sql);
        },
        tableHash: () => session.tableHash(),
        dispose: () => session.dispose(),
      };
      return gated;
    },
    close: () => inner.close(),
  };
  return { backend, held: () => held, open: release };
}

describe('DBBench gold check', () => {
  const standard = loadDbBenchSplit(resolveDataDir(), 'standard');
  // standard #225: its gold SQL cannot reproduce the stored hash; the next mutation task's can.
  const glitch = standard.find((t) => t.index === 225)!;
  const sound = standard.find((t) => t.kind === 'mutation' && t.index > 225)!;

  it('runs beside the episode: the episode opens while the gold SQL still waits, and close() adds the flag', async () => {
    const { backend, held, open } = gatedBackend();
    const environment = createDbBenchEnvironment({ dataDir: resolveDataDir(), split: 'standard', backend, tasks: [glitch, sound] });
    try {
      const flagged = await environment.openEpisode(0);
      const clean = await environment.openEpisode(1);
      // Both gold statements are waiting at the gate, yet both episodes are open.
      expect(held()).toBe(2);
      expect(flagged.info).toEqual({ type: glitch.type });
      const closing = Promise.all([flagged.close(), clean.close()]);
      open();
      await closing;
      expect(flagged.info).toEqual({ type: glitch.type, goldUnreproducible: true });
      expect(clean.info).toEqual({ type: sound.type });
    } finally {
      open();
      await environment.close();
    }
  });
});

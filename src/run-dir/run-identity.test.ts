import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { ConfigError } from '../episode/index.js';
import { ImproveRunDir } from './improve-run-dir.js';
import { identityDifferences, IMPROVE_IDENTITY_VERSION, strategyAndTimeout, type ImproveIdentity } from './run-identity.js';

const base: ImproveIdentity = {
  schemaVersion: IMPROVE_IDENTITY_VERSION, bench: 'dbbench', split: 'dev', taskIndices: [0, 1, 2], batchSize: 10, batches: null,
  target: 'sim:dbbench?seed=1', engineer: 'symbolic', metric: 'delta_pass_rate', threshold: 1, protocol: 'fc', revise: false, options: { backend: 'sqlite' },
};
const root = mkdtempSync(path.join(tmpdir(), 'harness-identity-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('improve run identity', () => {
  it('names every setting that differs, benchmark options included', () => {
    expect(identityDifferences(base, base)).toEqual([]);
    expect(identityDifferences(base, { ...base, batchSize: 4, options: { backend: 'mariadb' } })).toEqual(['batchSize: 10 → 4', 'options.backend: "sqlite" → "mariadb"']);
  });

  it('treats disabled lifecycle positions as part of the identity', () => {
    expect(identityDifferences(base, { ...base, disabledHooks: ['on_init'] })).toEqual(['disabledHooks: (unset) → ["on_init"]']);
    expect(identityDifferences({ ...base, disabledHooks: ['on_init'] }, { ...base, disabledHooks: ['make_pre_hint'] })).toEqual(['disabledHooks: ["on_init"] → ["make_pre_hint"]']);
  });

  it('refuses to continue a run directory started with other disabled positions', () => {
    const run = new ImproveRunDir(path.join(root, 'run'));
    run.claimIdentity({ ...base, disabledHooks: ['on_init'] });
    expect(() => run.claimIdentity(base)).toThrow(ConfigError);
    expect(() => run.claimIdentity(base)).toThrow(/disabledHooks: \["on_init"\] → \(unset\)/);
  });

  it('treats the baseline target strategy as part of the identity, naming it in the differences', () => {
    expect(identityDifferences(base, { ...base, strategy: 'reflection' })).toEqual(['strategy: (unset) → "reflection"']);
    expect(identityDifferences({ ...base, strategy: 'reflection' }, { ...base, strategy: 'react' })).toEqual(['strategy: "reflection" → "react"']);
    expect(identityDifferences({ ...base, strategy: 'self_refine' }, base)).toEqual(['strategy: "self_refine" → (unset)']);
  });

  it('the plain target adds no key: a run made before strategies existed keeps its identity bytes', () => {
    expect(strategyAndTimeout({})).toEqual({});
    expect(strategyAndTimeout({ strategy: undefined, hookTimeoutMs: undefined })).toEqual({});
    const plain = { ...base, ...strategyAndTimeout({}) };
    expect(JSON.stringify(plain)).toBe(JSON.stringify(base));
    expect(strategyAndTimeout({ strategy: 'reflection', hookTimeoutMs: 1000 })).toEqual({ strategy: 'reflection', hookTimeoutMs: 1000 });
  });

  it('refuses to resume a run directory with another strategy, and resumes it with the same one', () => {
    const run = new ImproveRunDir(path.join(root, 'strategy'));
    run.claimIdentity({ ...base, strategy: 'reflection' });
    expect(() => run.claimIdentity({ ...base, strategy: 'reflection' })).not.toThrow();
    expect(() => run.claimIdentity({ ...base, strategy: 'react' })).toThrow(/strategy: "reflection" → "react"/);
    expect(() => run.claimIdentity(base)).toThrow(/strategy: "reflection" → \(unset\)/);
  });
});

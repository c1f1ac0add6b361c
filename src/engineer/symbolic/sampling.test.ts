import { describe, expect, it } from 'vitest';

import type { EngineerResult } from '../engineer.js';
import { BLOCK_HELPER } from './python-kit.js';
import { createSignatureSampler, seededRandom, varyPatch } from './sampling.js';

const tally = [
  { id: 'a', failed: 5 },
  { id: 'b', failed: 3 },
  { id: 'c', failed: 1 },
  { id: 'd', failed: 0 },
];

const patch = (): EngineerResult => ({
  status: 'ok',
  proposal: {
    kind: 'patch',
    patch: {
      benchmark: 'dbbench',
      actions: [
        { type: 'add_code_hook', hook: 'on_init', code: 'def hook(ctx, nb):\n    return None\n' },
        { type: 'add_code_hook', hook: 'make_pre_hint', code: 'def hook(ctx, nb):\n    return None\n' },
        { type: 'add_code_hook', hook: 'on_before_action', code: `${BLOCK_HELPER}\n\ndef hook(ctx, nb):\n    return block(nb, 'x', 2, 'm')\n` },
      ],
    },
  },
  notes: [],
});

describe('symbolic sampling', () => {
  it('draws the same for the same seed and differently across seeds', () => {
    const draws = (seed: number) => Array.from({ length: 5 }, seededRandom(seed));
    expect(draws(3)).toEqual(draws(3));
    expect(draws(3)).not.toEqual(draws(4));
    expect(draws(3).every((x) => x >= 0 && x < 1)).toBe(true);
  });

  it('chooses among signatures seen in failures, in tally order, and varies across seeds', () => {
    const choices = Array.from({ length: 40 }, (_, seed) => createSignatureSampler({ temperature: 0.7, topP: 0.95, seed }).choose(tally, 6).join(','));
    for (const c of choices) {
      expect(c).not.toContain('d');
      expect(c.split(',')).toEqual([...c.split(',')].sort());
    }
    expect(new Set(choices).size).toBeGreaterThan(2);
    // A tight nucleus keeps only the most frequent signature.
    expect(createSignatureSampler({ temperature: 0.1, topP: 0.5, seed: 9 }).choose(tally, 6)).toEqual(['a']);
  });

  it('varies the template variant and block caps, and says what it drew', () => {
    const variants = new Set<string>();
    const caps = new Set<string>();
    for (let seed = 0; seed < 30; seed++) {
      const r = varyPatch(patch(), { temperature: 1, topP: 0.95, seed });
      const note = (r.status === 'ok' ? r.notes ?? [] : []).find((n) => n.startsWith('sampling:'))!;
      variants.add(/variant (\w+)/.exec(note)![1]!);
      const p = (r.status === 'ok' && r.proposal.kind === 'patch' ? r.proposal.patch : null) as { actions: { hook: string; code: string }[] };
      const guard = p.actions.find((a) => a.hook === 'on_before_action');
      if (guard) caps.add(/block\(nb, 'x', (\d),/.exec(guard.code)![1]!);
    }
    expect(variants).toEqual(new Set(['full', 'hints_only', 'guards_only']));
    expect([...caps].sort()).toEqual(['1', '2', '3']);
    expect(varyPatch(patch(), { temperature: 1, topP: 0.95, seed: 5 })).toEqual(varyPatch(patch(), { temperature: 1, topP: 0.95, seed: 5 }));
  });
});

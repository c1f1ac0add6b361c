import { describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../config/data-dir.js';
import { loadAlfworldGames, type AlfworldGameRecord } from './load-games.js';
import { ALFWORLD_WORDINGS, loadAlfworldLogic } from './load-logic.js';
import { describeWalkthroughMiss, replayWalkthroughs } from './replay-walkthroughs.js';

const dataDir = resolveDataDir();
const games = loadAlfworldGames(dataDir);
const logic = loadAlfworldLogic(dataDir);

describe('walkthrough conformance (every shipped expert plan wins exactly at its last step)', () => {
  it.each(ALFWORLD_WORDINGS)('wording %s', (wording) => {
    const result = replayWalkthroughs({ games, logic, wording });
    console.log(`ALFWorld ${wording}: ${result.wonAtLastStep}/${result.total} won at last step`);
    for (const miss of result.misses) console.log(`  miss: ${describeWalkthroughMiss(miss)}`);
    expect(result.total).toBe(334);
    expect(result.misses.map(describeWalkthroughMiss)).toEqual([]);
    expect(result.wonAtLastStep).toBe(334);
  });

  it('reports each kind of miss as a value', () => {
    const base = games.find((g) => g.taskType === 'pick_and_place_simple')!;
    const variant = (id: string, patch: Partial<AlfworldGameRecord>): AlfworldGameRecord => ({ ...base, id, ...patch });
    const result = replayWalkthroughs({
      games: [
        variant('typo', { walkthrough: ['go to nowhere 1', ...base.walkthrough] }),
        variant('short', { walkthrough: base.walkthrough.slice(0, -1) }),
        variant('long', { walkthrough: [...base.walkthrough, 'look'] }),
        variant('broken', { pddlProblem: '(define (problem p)' }),
      ],
      logic,
      wording: '2.1.2',
    });
    expect(result.wonAtLastStep).toBe(0);
    expect(result.misses.map((m) => [m.id, m.kind])).toEqual([
      ['typo', 'not_admissible'],
      ['short', 'not_won'],
      ['long', 'won_early'],
      ['broken', 'bad_game'],
    ]);
    expect(describeWalkthroughMiss(result.misses[0]!)).toBe("typo: step 1 'go to nowhere 1' is not admissible (Nothing happens.)");
    expect(describeWalkthroughMiss(result.misses[3]!)).toMatch(/^broken: cannot load the game: .*unclosed '\('/);
  });
});

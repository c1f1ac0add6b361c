import { describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../config/data-dir.js';
import { loadAlfworldGames } from './load-games.js';
import { loadAlfworldSplit } from './splits.js';

const dataDir = resolveDataDir();
const games = loadAlfworldGames(dataDir);

describe('AgentBench ALFWorld splits', () => {
  it('resolves dev and standard in full, in AgentBench order', () => {
    const dev = loadAlfworldSplit(dataDir, 'dev', games);
    expect([dev.entries.length, dev.available.length, dev.missing.length]).toEqual([20, 20, 0]);
    expect(dev.available[0]!.game.id).toBe('json_2.1.1/valid_unseen/pick_and_place_simple-SoapBottle-None-Toilet-424/trial_T20190907_004404_604165');
    expect(dev.entries.map((e) => e.index)).toEqual([...Array(20).keys()]);
    const std = loadAlfworldSplit(dataDir, 'standard', games);
    expect([std.entries.length, std.available.length, std.missing.length]).toEqual([50, 50, 0]);
  });

  it('reports the new_std games the data does not ship instead of skipping them', () => {
    const split = loadAlfworldSplit(dataDir, 'new_std', games);
    expect([split.entries.length, split.available.length, split.missing.length]).toEqual([109, 93, 16]);
    const missing = split.missing.map((e) => e.id.split('/')[2]);
    expect(missing.filter((d) => d!.endsWith('-SinkBasin-10'))).toHaveLength(9);
    expect(missing.filter((d) => d!.includes('-BreadSliced-'))).toHaveLength(2);
  });

  it('reports every train_valid game as not shipped (they are train/ games)', () => {
    const split = loadAlfworldSplit(dataDir, 'train_valid', games);
    expect([split.entries.length, split.available.length, split.missing.length]).toEqual([3150, 0, 3150]);
  });

  it('names the allowed splits for an unknown one', () => {
    expect(() => loadAlfworldSplit(dataDir, 'test', games)).toThrow(/Unknown ALFWorld split 'test'. Allowed: dev, standard, new_std, train_valid/);
  });
});

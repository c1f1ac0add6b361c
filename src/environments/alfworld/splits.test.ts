import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../config/data-dir.js';
import { loadAlfworldGames } from './load-games.js';
import { ALFWORLD_FAMILY_OF } from './task-families.js';
import { alfworldGamesFileSplit, loadAlfworldSplit, loadAlfworldSplitGames } from './splits.js';

const dataDir = resolveDataDir();
const games = loadAlfworldGames(dataDir);
const root = mkdtempSync(path.join(tmpdir(), 'alfworld-splits-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

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

  it('loads only the games files a split plays from, so a bad line elsewhere does not break it', () => {
    // A data folder whose valid_train games file is broken; dev, standard and new_std play valid_unseen games only.
    const data = path.join(root, 'data');
    mkdirSync(path.join(data, 'alfworld', 'games'), { recursive: true });
    for (const entry of readdirSync(path.join(dataDir, 'alfworld'))) {
      if (entry !== 'games') symlinkSync(path.join(dataDir, 'alfworld', entry), path.join(data, 'alfworld', entry));
    }
    symlinkSync(path.join(dataDir, 'alfworld', 'games', 'valid_unseen.jsonl'), path.join(data, 'alfworld', 'games', 'valid_unseen.jsonl'));
    writeFileSync(path.join(data, 'alfworld', 'games', 'valid_train.jsonl.gz'), '{"id": "json_2.1.1/valid_train/x"\n');
    const dev = loadAlfworldSplitGames(data, 'dev');
    expect(dev.available.map((a) => a.game.id)).toEqual(loadAlfworldSplit(dataDir, 'dev', games).available.map((a) => a.game.id));
    expect(loadAlfworldSplitGames(data, 'new_std').missing).toHaveLength(16);
    expect(() => loadAlfworldGames(data)).toThrow(/valid_train\.jsonl\.gz:1: not valid JSON/);
  });

  it('plays a games file as a split: file order, each game in its task type\'s family', () => {
    const lines = readFileSync(path.join(dataDir, 'alfworld', 'games', 'valid_unseen.jsonl'), 'utf8').split('\n').filter((l) => l !== '');
    const file = path.join(root, 'three.jsonl');
    writeFileSync(file, `${[lines[5], lines[0], lines[40]].join('\n')}\n`);
    const split = alfworldGamesFileSplit(file, 'file:three.jsonl');
    const ids = [lines[5], lines[0], lines[40]].map((l) => (JSON.parse(l!) as { id: string }).id);
    expect(split.available.map((a) => a.game.id)).toEqual(ids);
    expect(split.entries.map((e) => [e.index, e.id])).toEqual(ids.map((id, i) => [i, id]));
    // The family is the one the split files use for the game's task type (the directory name's prefix).
    const families = split.entries.map((e) => e.family);
    expect(families).toEqual(split.available.map((a) => ALFWORLD_FAMILY_OF[a.game.taskType]));
    expect(families.every((f, i) => ids[i]!.split('/')[2]!.startsWith(f))).toBe(true);
    expect(split.missing).toEqual([]);
  });
});

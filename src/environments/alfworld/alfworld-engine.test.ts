import { describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../config/data-dir.js';
import { createAlfworldGame } from './alfworld-engine.js';
import { findAlfworldGame, loadAlfworldGames } from './load-games.js';
import { loadAlfworldLogic } from './load-logic.js';
import { agentBenchInitialObservation, stripArrivalPrefix } from './render-observation.js';

const dataDir = resolveDataDir();
const games = loadAlfworldGames(dataDir);
const logic = loadAlfworldLogic(dataDir);

const VASE = 'json_2.1.1/valid_unseen/pick_and_place_simple-Vase-None-Safe-219/trial_T20190908_205204_244321';
const BOWL = 'json_2.1.1/valid_train/look_at_obj_in_light-Bowl-None-DeskLamp-305/trial_T20190909_000758_132057';
const ALARM = 'json_2.1.1/valid_unseen/look_at_obj_in_light-AlarmClock-None-DeskLamp-308/trial_T20190908_222917_366542';

function open(id: string, wording: '2.1.1' | '2.1.2') {
  return createAlfworldGame(findAlfworldGame(games, id), { wording, logic });
}

/**
 * Observations published from the real ALFWorld 2.1.2 engine (an agent's 30-step episode on this game),
 * including a second look at a two-cabinet spot after a box moved between the cabinets.
 */
const VASE_TRACE: [string, string][] = [
  ['go to safe 1', 'You arrive at safe 1. The safe 1 is closed.'],
  ['open safe 1', 'You open the safe 1. The safe 1 is open. In it, you see a watch 2.'],
  ['take watch 2 from safe 1', 'You pick up the watch 2 from the safe 1.'],
  ['move watch 2 to safe 1', 'You move the watch 2 to the safe 1.'],
  ['look', 'You are facing the safe 1. Next to it, you see nothing.'],
  ['look', 'You are facing the safe 1. Next to it, you see nothing.'],
  ['go to cabinet 1', 'You arrive at cabinet 1. The cabinet 1 is closed.'],
  ['open cabinet 1', 'You open the cabinet 1. The cabinet 1 is open. In it, you see a box 1.'],
  ['take box 1 from cabinet 1', 'You pick up the box 1 from the cabinet 1.'],
  ['go to safe 1', 'You arrive at safe 1. The safe 1 is open. In it, you see a watch 2.'],
  ['examine box 1', 'This is a normal box 1. In it, you see nothing.'],
  ['close safe 1', 'You close the safe 1.'],
  ['go to cabinet 2', 'You arrive at cabinet 2. The cabinet 2 is closed.'],
  ['open cabinet 2', 'You open the cabinet 2. The cabinet 2 is open. In it, you see nothing.'],
  ['move box 1 to cabinet 2', 'You move the box 1 to the cabinet 2.'],
  ['take box 1 from cabinet 2', 'You pick up the box 1 from the cabinet 2.'],
  ['move box 1 to cabinet 2', 'You move the box 1 to the cabinet 2.'],
  ['look', 'You are facing the cabinet 2, and cabinet 1. Next to it, you see a box 1.'],
  ['go to safe 1', 'You arrive at safe 1. The safe 1 is closed.'],
  ['open safe 1', 'You open the safe 1. The safe 1 is open. In it, you see a watch 2.'],
  ['take watch 2 from safe 1', 'You pick up the watch 2 from the safe 1.'],
  ['move watch 2 to safe 1', 'You move the watch 2 to the safe 1.'],
  ['go to cabinet 2', 'You arrive at cabinet 2. The cabinet 2 is open. In it, you see a box 1.'],
  ['examine cabinet 2', 'The cabinet 2 is open. In it, you see a box 1.'],
  ['take box 1 from cabinet 2', 'You pick up the box 1 from the cabinet 2.'],
  ['move box 1 to cabinet 2', 'You move the box 1 to the cabinet 2.'],
  ['close cabinet 2', 'You close the cabinet 2.'],
  ['go to safe 1', 'You arrive at safe 1. The safe 1 is open. In it, you see a watch 2.'],
  ['go to cabinet 2', 'You arrive at cabinet 2. The cabinet 2 is closed.'],
  ['open cabinet 2', 'You open the cabinet 2. The cabinet 2 is open. In it, you see a box 1.'],
];

describe('ALFWorld engine, 2.1.2 wording', () => {
  it('reproduces a published ALFWorld episode text for text', () => {
    const game = open(VASE, '2.1.2');
    expect(game.reset().observation).toBe(
      '-= Welcome to TextWorld, ALFRED! =-\n\n' +
        'You are in the middle of a room. Looking quickly around you, you see a armchair 1, a cabinet 4, a cabinet 3, a cabinet 2, ' +
        'a cabinet 1, a drawer 5, a drawer 4, a drawer 3, a drawer 2, a drawer 1, a dresser 1, a garbagecan 1, a safe 1, a shelf 12, ' +
        'a shelf 11, a shelf 10, a shelf 9, a shelf 8, a shelf 7, a shelf 6, a shelf 5, a shelf 4, a shelf 3, a shelf 2, a shelf 1, ' +
        'a sidetable 1, and a sofa 1.\n\nYour task is to: put a vase in safe.',
    );
    for (const [command, observation] of VASE_TRACE) {
      const result = game.step(command);
      expect({ command, observation: result.observation, executed: result.executed }).toEqual({ command, observation, executed: true });
      expect(result.won).toBe(false);
    }
  });

  it('lets only a held object be examined, as the published traces show', () => {
    const game = open(BOWL, '2.1.2');
    game.reset();
    expect(game.step('go to dresser 1').observation).toBe('You arrive at dresser 1. On the dresser 1, you see a desklamp 1, a pen 3, a pen 2, and a pencil 3.');
    expect(game.step('use desklamp 1').observation).toBe('You turn on the desklamp 1.');
    expect(game.admissible()).not.toContain('examine desklamp 1');
    expect(game.step('take pencil 3 from dresser 1').observation).toBe('You pick up the pencil 3 from the dresser 1.');
    expect(game.step('examine dresser 1').observation).toBe('On the dresser 1, you see a desklamp 1, a pen 3, and a pen 2.');
    expect(game.step('examine pencil 3').observation).toBe("There's nothing special about pencil 3.");
    expect(game.step('examine desklamp 1')).toMatchObject({ observation: 'Nothing happens.', executed: false, won: false });
    expect(game.step('use desklamp 1').observation).toBe('You turn on the desklamp 1.');
    expect(game.step('inventory').observation).toBe('You are carrying: a pencil 3.');
  });

  it('answers non-admissible commands with "Nothing happens." and leaves the state alone', () => {
    const game = open(ALARM, '2.1.2');
    const { admissible } = game.reset();
    expect(admissible).toEqual([...admissible].sort());
    expect(admissible).toContain('help');
    for (const bad of ['take alarmclock 1 from desk 2', 'Go to desk 2', 'go to desk 9', '', 'put alarmclock 1 in/on desk 1']) {
      expect(game.step(bad)).toEqual({ observation: 'Nothing happens.', admissible, won: false, done: false, executed: false });
    }
    expect(game.step('  go to desk 2 ').observation).toBe('You arrive at desk 2. On the desk 2, you see a alarmclock 1.');
    expect(game.admissible()).toContain('go to desk 2');
    expect(game.step('help').observation).toMatch(/^\nAvailable commands:\n {2}look: +look around your current location\n/);
  });

  it('reports the win, keeps playing after it, and resets to the start', () => {
    const game = open(ALARM, '2.1.2');
    const first = game.reset();
    for (const c of ['go to desk 2', 'take alarmclock 1 from desk 2', 'go to desk 1']) expect(game.step(c).won).toBe(false);
    expect(game.step('use desklamp 1')).toMatchObject({ observation: 'You turn on the desklamp 1.', won: true, done: true });
    expect(game.step('examine alarmclock 1')).toMatchObject({ observation: "There's nothing special about alarmclock 1.", won: true });
    expect(game.step('go to desk 2').won).toBe(false);
    expect(game.reset()).toEqual(first);
    expect(game.isWon()).toBe(false);
  });
});

describe('ALFWorld engine, 2.1.1 wording (what AgentBench agents saw)', () => {
  it('says "put X in/on Y" and "You arrive at loc N." and offers no help', () => {
    const game = open(VASE, '2.1.1');
    const { observation, admissible } = game.reset();
    expect(admissible).not.toContain('help');
    expect(agentBenchInitialObservation(observation)).toMatch(/^You are in the middle of a room\. .*and a sofa 1\.\nYour task is to: put a vase in safe\.$/);
    const arrive = game.step('go to shelf 10').observation;
    expect(arrive).toMatch(/^You arrive at loc \d+\. On the shelf 10, you see a vase 1\.$/);
    expect(stripArrivalPrefix(arrive)).toBe('On the shelf 10, you see a vase 1.');
    game.step('take vase 1 from shelf 10');
    expect(game.admissible()).toContain('put vase 1 in/on shelf 10');
    expect(game.admissible()).not.toContain('move vase 1 to shelf 10');
    game.step('go to safe 1');
    game.step('open safe 1');
    expect(game.step('move vase 1 to safe 1').observation).toBe('Nothing happens.');
    expect(game.step('put vase 1 in/on safe 1')).toMatchObject({ observation: 'You put the vase 1 in/on the safe 1.', won: true, done: true });
  });

  it('leaves other observations to stripArrivalPrefix unchanged', () => {
    expect(stripArrivalPrefix('You arrive at safe 1. The safe 1 is closed.')).toBe('You arrive at safe 1. The safe 1 is closed.');
    expect(stripArrivalPrefix('Nothing happens.')).toBe('Nothing happens.');
  });
});

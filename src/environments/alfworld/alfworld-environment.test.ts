import { describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../config/data-dir.js';
import { ConfigError } from '../../episode/index.js';
import { createAlfworldEnvironment, processAlfworldAction } from './alfworld-environment.js';
import { AlfworldEpisodeState, parseAlfworldTask } from './alfworld-hook-context.js';
import { loadAlfworldProtocol, withToolHints } from './alfworld-prompts.js';

const dataDir = resolveDataDir();

describe('the ALFWorld environment', () => {
  it('opens the shipped games of a split and rejects bad options', async () => {
    const env = createAlfworldEnvironment({ dataDir, split: 'dev' });
    expect(env.size).toBe(20);
    const ep = await env.openEpisode(19);
    expect(ep.info).toMatchObject({ family: 'pick_two_obj', taskType: 'pick_two_obj_and_place' });
    expect(ep.maxRounds).toBe(50);
    await expect(env.openEpisode(20)).rejects.toThrow(ConfigError);
    expect(() => createAlfworldEnvironment({ dataDir, split: 'dev', maxSteps: 0 })).toThrow(ConfigError);
    expect(() => createAlfworldEnvironment({ dataDir, split: 'nope' })).toThrow(ConfigError);
  });

  it('speaks the 2.1.2 wording when asked', async () => {
    const env = createAlfworldEnvironment({ dataDir, split: 'dev', wording: '2.1.2' });
    const ep = (await env.openEpisode(0)) as unknown as { stepAction(a: string): Promise<{ observation: string }> };
    expect((await ep.stepAction('go to countertop 1')).observation).toMatch(/^You arrive at countertop 1\. On the countertop 1/);
  });

  it('reads the system prompt and take_action from agentbench_prompts.json; tool hints patch the description', () => {
    const protocol = loadAlfworldProtocol(dataDir);
    expect(protocol.systemPrompt).toMatch(/^Interact with a household/);
    expect(protocol.tools.map((t) => t.name)).toEqual(['take_action']);
    expect(withToolHints(protocol.tools, ['A.', 'B.'])[0]!.description).toBe('Take an action. A. B.');
  });

  it('process_action: cleaning, put X in Y, then the nearest admissible command by BLEU', () => {
    const admissible = ['go to desk 1', 'put mug 1 in/on desk 1'];
    expect(processAlfworldAction('  Go To  Desk 1. ', admissible)).toBe('go to desk 1');
    expect(processAlfworldAction('put mug 1 on desk 1', admissible)).toBe('put mug 1 in/on desk 1');
    expect(processAlfworldAction('Fly', admissible)).toBe('fly');
    expect(processAlfworldAction('go to the desk 1\nthen put the mug', admissible)).toBe('go to desk 1');
    expect(processAlfworldAction('put the mug in the desk', admissible)).toBe('put mug 1 in/on desk 1');
    // The put in/on rewrite wins over BLEU when it gives an admissible command.
    const two = ['put mug 1 in/on desk 1', 'put mug 1 in/on desk 2'];
    expect(processAlfworldAction('put mug 1 onto desk 2', two)).toBe('put mug 1 in/on desk 2');
    // Without a shared word the text stays as it is (the game says "Nothing happens.").
    expect(processAlfworldAction('  Head over THERE ', admissible)).toBe('head over there');
  });

  // `[.!]+$` and the BLEU tokenizer on a model reply of megabytes: the regex strip was quadratic.
  it('process_action is linear on multi-megabyte replies', () => {
    const admissible = ['go to desk 1', 'put mug 1 in/on desk 1'];
    expect(processAlfworldAction(`put zap on ${'.'.repeat(2_000_000)}x`, admissible)).toBe('put mug 1 in/on desk 1');
    expect(processAlfworldAction(`zap ${'.'.repeat(2_000_000)}x`, admissible)).toHaveLength(2_000_005);
    expect(processAlfworldAction(`put mug 1 on desk 1${'!.'.repeat(1_000_000)}`, admissible)).toBe('put mug 1 in/on desk 1');
    expect(processAlfworldAction(`go to${' \t'.repeat(1_000_000)}desk 1`, admissible)).toBe('go to desk 1');
  });

  it('opens v0.2 text episodes: no tools, 35 steps', async () => {
    const env = createAlfworldEnvironment({ dataDir, split: 'dev', protocol: 'v0.2' });
    const ep = await env.openEpisode(0);
    expect(ep.tools).toEqual([]);
    expect(ep.maxRounds).toBe(35);
    expect(ep.hasTool('take_action')).toBe(false);
    expect((await createAlfworldEnvironment({ dataDir, split: 'dev', protocol: 'v0.2', maxSteps: 50 }).openEpisode(0)).maxRounds).toBe(50);
    expect(() => createAlfworldEnvironment({ dataDir, split: 'dev', protocol: 'v0.2', maxSteps: 0 })).toThrow(ConfigError);
    const fcEpisode = await createAlfworldEnvironment({ dataDir, split: 'dev' }).openEpisode(0);
    expect(() => fcEpisode.openingMessages({ skills: [], toolHints: [] })).toThrow(ConfigError);
  });

  it('parses target and destination types from the goal', () => {
    expect(parseAlfworldTask('pick_clean_then_place_in_recep', 'clean some cloth and put it in cabinet.')).toEqual({ task_type: 'pick_clean_then_place', target_type: 'cloth', destination_type: 'cabinet' });
    expect(parseAlfworldTask('pick_heat_then_place_in_recep', 'put a hot apple in fridge.')).toMatchObject({ target_type: 'apple', destination_type: 'fridge' });
    expect(parseAlfworldTask('pick_two_obj_and_place', 'find two pillow and put them in sofa.')).toMatchObject({ target_type: 'pillow', destination_type: 'sofa' });
    expect(parseAlfworldTask('look_at_obj_in_light', 'look at bowl under the desklamp.')).toMatchObject({ target_type: 'bowl', destination_type: 'desklamp' });
    expect(parseAlfworldTask('look_at_obj_in_light', 'examine the alarmclock with the desklamp.')).toMatchObject({ target_type: 'alarmclock', destination_type: 'desklamp' });
  });

  it('tracks counters and the world model from steps', () => {
    const st = new AlfworldEpisodeState('look_at_obj_in_light', 'look at bowl under the desklamp.', 'You are in the middle of a room. Looking quickly around you, you see a desk 1, and a shelf 1.\nYour task is to: look at bowl under the desklamp.', []);
    st.update('go to desk 1', 'On the desk 1, you see a bowl 1, and a desklamp 1.', []);
    st.update('fly', 'Nothing happens.', []);
    st.update('fly', 'Nothing happens.', []);
    expect(st.invalidActionCount).toBe(2);
    expect(st.world()).toMatchObject({ current_location: 'desk 1', visited: ['desk 1'], unvisited: ['shelf 1'], target_found: true, target_location: 'desk 1', lamp_location: 'desk 1' });
  });
});

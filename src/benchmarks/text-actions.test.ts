import { describe, expect, it } from 'vitest';

import type { EpisodeRecord } from '../episode/index.js';
import { asToolCallView } from '../engineer/text-actions.js';
import { ALFWORLD_ARGUMENT_KEYS, parseAlfworldTextAction } from './alfworld/engineer/alfworld-text-actions.js';
import { parseWebShopTextAction } from './webshop/engineer/webshop-text-actions.js';

function record(messages: EpisodeRecord['messages'], preamble?: number): EpisodeRecord {
  return {
    schemaVersion: 2,
    task: { bench: 'alfworld', split: 'dev', index: 0 },
    attempt: 1,
    outcome: 'round_limit',
    reward: 0,
    rounds: 2,
    detail: {},
    steps: [],
    hookTrace: [],
    messages,
    ...(preamble !== undefined ? { preamble } : {}),
    usage: { promptTokens: 0, completionTokens: 0, modelCalls: 0 },
  };
}

describe('text-protocol actions', () => {
  it('reads ALFWorld ACTION lines and WebShop search/click actions as the protocols do', () => {
    expect(parseAlfworldTextAction('THOUGHT: go.\nACTION:  Go to Cabinet 1 \nmore')).toEqual({ name: 'take_action', value: 'go to cabinet 1' });
    expect(parseAlfworldTextAction('action: go to cabinet 1')).toBeUndefined();
    expect(parseWebShopTextAction('Thought: x\nAction:\n search[Red  Shoes]')).toEqual({ name: 'search_action', value: 'red shoes' });
    expect(parseWebShopTextAction('action: click[Buy Now] then')).toEqual({ name: 'click_action', value: 'buy now' });
    expect(parseWebShopTextAction('Action: buy[x]')).toBeUndefined();
    expect(parseWebShopTextAction('Action: click[]')).toBeUndefined();
  });

  it('turns a text-protocol record into the tool-calling shape and leaves FC records alone', () => {
    const fc = record([{ role: 'system', content: 's' }]);
    expect(asToolCallView(fc, parseAlfworldTextAction, ALFWORLD_ARGUMENT_KEYS)).toBe(fc);
    const text = record(
      [
        { role: 'user', content: 'rules' },
        { role: 'assistant', content: 'OK.' },
        { role: 'user', content: 'Here is your task. AVAILABLE ACTIONS: look\n' },
        { role: 'assistant', content: 'ACTION: look' },
        { role: 'user', content: 'You see nothing. AVAILABLE ACTIONS: look\n' },
        { role: 'assistant', content: 'hmm' },
        { role: 'user', content: 'blocked' },
      ],
      2,
    );
    const view = asToolCallView(text, parseAlfworldTextAction, ALFWORLD_ARGUMENT_KEYS);
    expect(view.preamble).toBeUndefined();
    expect(view.messages).toEqual([
      { role: 'user', content: 'Here is your task. AVAILABLE ACTIONS: look\n' },
      { role: 'assistant', content: 'ACTION: look', toolCalls: [{ id: 'text-0', name: 'take_action', arguments: '{"action":"look"}' }] },
      { role: 'tool', toolCallId: 'text-0', content: 'You see nothing. AVAILABLE ACTIONS: look\n' },
      { role: 'assistant', content: 'hmm' },
      { role: 'user', content: 'blocked' },
    ]);
  });
});

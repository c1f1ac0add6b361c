import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

import { resolveDataDir } from '../../config/data-dir.js';
import { renderAvailableActions } from './webshop-prompts.js';
import { buildWebShopTextUserPrompt, loadWebShopTextProtocol, parseWebShopTextAction, renderWebShopTextTurn } from './webshop-text-prompts.js';

const dataDir = resolveDataDir();
const present = existsSync(path.join(dataDir, 'agentbench_prompts.json'));

describe('the v0.2 action regex', () => {
  const cases: [string, string | undefined][] = [
    ['Thought:\nI think so.\n\nAction:\nclick[Buy Now]', 'click[Buy Now]'],
    ['Action:\n\n\n   search[red shoes]', 'search[red shoes]'],
    ['action: search[red shoes]', 'search[red shoes]'],
    ['Action: click[b0]] and more [text]', 'click[b0]'],
    ['Action: click[< prev] then Action: click[buy now]', 'click[< prev]'],
    ['My Action: search[x]', 'search[x]'],
    ['Action: search[a\nb]', undefined],
    ['Action: \t search[x]', undefined],
    ['Action: search red shoes', undefined],
    ['Action: search[red shoes', undefined],
    ['ACTION: search[x]', undefined],
    ['Action: Search[x]', undefined],
    ['Action: search[]', undefined],
    ['search[x]', undefined],
    ['Action:\r\nsearch[x]', undefined],
  ];
  it.each(cases)('%j → %j', (text, action) => {
    expect(parseWebShopTextAction(text)?.action).toBe(action);
  });

  it('splits the verb and the bracket value', () => {
    expect(parseWebShopTextAction('Action: click[6.76 fl oz (pack of 1)]')).toEqual({ action: 'click[6.76 fl oz (pack of 1)]', verb: 'click', value: '6.76 fl oz (pack of 1)' });
  });
});

describe('v0.2 messages', () => {
  it('fills the turn template with the page as is and the actions as a Python repr', () => {
    const actions = renderAvailableActions(false, ['back to search', "l'eau", '< prev']);
    expect(actions).toBe(`{'has_search_bar': False, 'clickables': ['back to search', "l'eau", '< prev']}`);
    expect(renderWebShopTextTurn('Observation:\n<observation>\n\nAvailable Actions:\n<available_actions>', 'A <available_actions> B $1', actions)).toBe(
      `Observation:\nA <available_actions> B $1\n\nAvailable Actions:\n${actions}`,
    );
  });

  it('leaves the prompt unchanged without on_init effects and appends tips, then action hints once each', () => {
    expect(buildWebShopTextUserPrompt('\nPrompt\n', [], [])).toBe('\nPrompt\n');
    const out = buildWebShopTextUserPrompt('\nPrompt\n', ['a', 'b'], ['h', 'h', 'k']);
    expect(out).toMatch(/^\nPrompt\n\nSome tips that may help for this task:\n- a\n- b\n\nHow to use the actions:\nsearch\[keywords\]: .+\nclick\[value\]: .+\n\nh\n\nk\n$/);
    expect(buildWebShopTextUserPrompt('P', [], ['h'])).toMatch(/^P\n\nHow to use the actions:\n/);
  });

  it.skipIf(!present)('reads the v0.2 entry: prompt, "Ok.", 8 one-shot turns with the agent role as assistant, the template with real line breaks, 10 rounds', () => {
    const text = loadWebShopTextProtocol(dataDir);
    expect(text.userPrompt).toMatch(/^\nYou are web shopping\.\n[\s\S]*Action:\nclick\[something\]\n$/);
    expect(text.agentReply).toBe('Ok.');
    expect(text.oneShot.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
    expect(text.oneShot[0]!.content).toMatch(/^Observation:\n"WebShop \[SEP\] Instruction: \[SEP\] i need a long lasting/);
    expect(text.oneShot[7]!.content).toMatch(/Action:\nclick\[Buy Now\]$/);
    expect(text.turnTemplate).toBe('Observation:\n<observation>\n\nAvailable Actions:\n<available_actions>');
    expect(text.maxRounds).toBe(10);
  });
});

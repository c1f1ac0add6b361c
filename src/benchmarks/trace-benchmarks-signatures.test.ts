import { describe, expect, it } from 'vitest';

import type { ChatMessage, EpisodeRecord, Outcome } from '../episode/index.js';
import { asToolCallView } from '../engineer/text-actions.js';
import { ALFWORLD_ARGUMENT_KEYS, parseAlfworldTextAction } from './alfworld/engineer/alfworld-text-actions.js';
import { detectAlfworldSignatures, parseAlfworldGoal } from './alfworld/symbolic/alfworld-signatures.js';
import { tallyBench } from '../engineer/symbolic/bench-tally.js';
import { WEBSHOP_SIGNATURE_IDS, detectWebShopSignatures, hasOptionGroups, priceLimit } from './webshop/symbolic/webshop-signatures.js';

function record(bench: 'webshop' | 'alfworld', messages: ChatMessage[], outcome: Outcome = 'wrong_answer'): EpisodeRecord {
  return {
    schemaVersion: 2,
    task: { bench, split: 'dev', index: 0 },
    attempt: 1,
    outcome,
    reward: outcome === 'success' ? 1 : 0,
    rounds: messages.filter((m) => m.role === 'assistant').length,
    detail: {},
    steps: [],
    hookTrace: [],
    messages,
    usage: { promptTokens: 0, completionTokens: 0, modelCalls: 0 },
  };
}

/** An ALFWorld episode: the goal, then [action, observation] pairs, every action listed as admissible unless it starts with `!`. */
function alfworld(goal: string, turns: [string, string][], outcome: Outcome = 'round_limit'): EpisodeRecord {
  const listed = turns.filter(([a]) => !a.startsWith('!')).map(([a]) => a);
  const avail = ` AVAILABLE ACTIONS: ${['look', ...listed].join('\n')}`;
  const messages: ChatMessage[] = [
    { role: 'system', content: 'Interact with a household to solve a task.' },
    { role: 'user', content: `Here is your task. You are in the middle of a room.\nYour task is to: ${goal}.${avail}` },
  ];
  turns.forEach(([a, obs], i) => {
    messages.push({ role: 'assistant', content: null, toolCalls: [{ id: `c${i}`, name: 'take_action', arguments: JSON.stringify({ action: a.replace(/^!/, '') }) }] });
    messages.push({ role: 'tool', toolCallId: `c${i}`, content: obs + avail });
  });
  return record('alfworld', messages, outcome);
}

describe('ALFWorld signatures', () => {
  it('parses goals into kind, transform, target and destination types', () => {
    expect(parseAlfworldGoal('Your task is to: put a hot cup in cabinet.')).toEqual({ kind: 'transform', transform: 'heat', target: 'cup', destination: 'cabinet' });
    expect(parseAlfworldGoal('Your task is to: clean some cloth and put it in cabinet.')).toMatchObject({ kind: 'transform', transform: 'clean' });
    expect(parseAlfworldGoal('Your task is to: find two cd and put them in safe.')).toMatchObject({ kind: 'two', target: 'cd', destination: 'safe' });
    expect(parseAlfworldGoal('Your task is to: look at bowl under the desklamp.')).toMatchObject({ kind: 'look', target: 'bowl' });
  });

  it('finds each signature in a trace that shows it', () => {
    const skip = alfworld('put a hot cup in cabinet', [['take cup 4 from sinkbasin 1', 'You pick up the cup 4.'], ['put cup 4 in/on cabinet 1', 'You put the cup 4 in/on the cabinet 1.']]);
    expect(detectAlfworldSignatures(skip)).toEqual(new Set(['skip_transform']));
    const loop = alfworld('put a hot cup in cabinet', [['heat cup 4 with microwave 1', 'You heat the cup 4.'], ['put cup 4 in/on microwave 1', 'Nothing happens.'], ['heat cup 4 with microwave 1', 'You heat the cup 4.']]);
    expect(detectAlfworldSignatures(loop)).toContain('transform_loop');
    const wrongAfterHeat = alfworld('put a hot cup in cabinet', [['heat cup 4 with microwave 1', 'You heat the cup 4.'], ['put cup 4 in/on countertop 1', 'You put the cup 4 in/on the countertop 1.']]);
    expect(detectAlfworldSignatures(wrongAfterHeat)).toEqual(new Set(['wrong_destination']));
    const wrong = alfworld('put a pencil in shelf', [['put pencil 1 in/on desk 1', 'You put the pencil 1 in/on the desk 1.']]);
    expect(detectAlfworldSignatures(wrong)).toEqual(new Set(['wrong_destination']));
    const repeat = alfworld('put a pencil in shelf', [['take pencil 1 from desk 1', 'Nothing happens.'], ['take pencil 1 from desk 1', 'Nothing happens.']]);
    expect(detectAlfworldSignatures(repeat)).toEqual(new Set(['repeat_failed']));
    const invalid = alfworld('look at bowl under the desklamp', [['!go to desk', 'Nothing happens.']]);
    expect(detectAlfworldSignatures(invalid)).toEqual(new Set(['invalid_action']));
    const second = alfworld('put two pillow in sofa', [['put pillow 2 in/on sofa 1', 'You put the pillow 2 in/on the sofa 1.']], 'invalid_action');
    expect(detectAlfworldSignatures(second)).toEqual(new Set(['forget_second']));
  });

  it('judges what ran by the mapped command and what was meant by the raw text', () => {
    // "put" is not admissible while the cup lies there; the environment maps it to the nearest command, a take.
    const meant = alfworld('put a hot cup in cabinet', [['take cup 4 from cabinet 1', 'You pick up the cup 4.'], ['!put cup 4 in/on cabinet 1', 'You pick up the cup 4 from the cabinet 1.']]);
    expect(detectAlfworldSignatures(meant)).toEqual(new Set(['skip_transform', 'invalid_action']));
    // Put, taken back (a mapped repeat), put again: one pillow at the sofa, not two.
    const back = alfworld(
      'put two pillow in sofa',
      [['put pillow 2 in/on sofa 1', 'You put the pillow 2 in/on the sofa 1.'], ['take pillow 2 from sofa 1', 'You pick up the pillow 2 from the sofa 1.'], ['put pillow 2 in/on sofa 1', 'You put the pillow 2 in/on the sofa 1.']],
      'invalid_action',
    );
    expect(detectAlfworldSignatures(back)).toContain('forget_second');
    const twoPlaced = alfworld('put two pillow in sofa', [['put pillow 2 in/on sofa 1', 'You put the pillow 2 in/on the sofa 1.'], ['put pillow 1 in/on sofa 1', 'You put the pillow 1 in/on the sofa 1.']], 'invalid_action');
    expect(detectAlfworldSignatures(twoPlaced)).not.toContain('forget_second');
  });

  it('counts the same output three times in a row as a repeat, even when each run did something', () => {
    const same = alfworld('put a pencil in shelf', [['go to desk 1', 'On the desk 1, you see a pencil 1.'], ['go to desk 1', 'On the desk 1, you see a pencil 1.'], ['go to desk 1', 'On the desk 1, you see a pencil 1.']], 'invalid_action');
    expect(detectAlfworldSignatures(same)).toEqual(new Set(['repeat_failed']));
    const twice = alfworld('put a pencil in shelf', [['go to desk 1', 'On the desk 1, you see a pencil 1.'], ['go to desk 1', 'On the desk 1, you see a pencil 1.']]);
    expect(detectAlfworldSignatures(twice)).toEqual(new Set());
  });

  it('reads v0.2 text-protocol episodes through the tool-call view', () => {
    const text = record('alfworld', [
      { role: 'user', content: 'Interact with a household to solve a task.' },
      { role: 'assistant', content: 'OK.' },
      { role: 'user', content: 'Here is your task. You are in the middle of a room.\nYour task is to: put a pencil in shelf. AVAILABLE ACTIONS: look\nput pencil 1 in/on desk 1\n' },
      { role: 'assistant', content: 'THOUGHT: here.\nACTION: put pencil 1 in/on desk 1' },
      { role: 'user', content: 'You put the pencil 1 in/on the desk 1. AVAILABLE ACTIONS: look\n' },
    ]);
    const withPreamble = { ...text, preamble: 2 };
    expect(detectAlfworldSignatures(text)).toEqual(new Set());
    expect(detectAlfworldSignatures(asToolCallView(withPreamble, parseAlfworldTextAction, ALFWORLD_ARGUMENT_KEYS))).toEqual(new Set(['wrong_destination']));
  });
});

const INSTRUCTION = "Find me men's shorts with color: black, and size: large, and price lower than 30.00 dollars";
const HOME = `WebShop [SEP] Instruction: [SEP] ${INSTRUCTION} [SEP] Search`;
const RESULTS = `Instruction: [SEP] ${INSTRUCTION} [SEP] Back to Search [SEP] Page 1 (Total results: 50) [SEP] Next > [SEP] B000000001 [SEP] Shorts [SEP] $19.99`;
const product = (price: string) =>
  `Instruction: [SEP] ${INSTRUCTION} [SEP] Back to Search [SEP] < Prev [SEP] color [SEP] black [SEP] size [SEP] large [SEP] Men's Shorts [SEP] Price: $${price} [SEP] Rating: N.A. [SEP] Description [SEP] Features [SEP] Reviews [SEP] Buy Now`;
const CLICKS: Record<string, string[]> = {
  home: ['search'],
  results: ['back to search', 'next >', 'b000000001'],
  product: ['back to search', '< prev', 'black', 'large', 'description', 'features', 'reviews', 'buy now'],
};

/** A WebShop episode from [tool, value, page after, clickables after] turns; `text` makes a text-only turn. */
function webshop(turns: ([string, string, string, string] | 'text')[], outcome: Outcome = 'wrong_answer'): EpisodeRecord {
  const avail = (c: string) => `\n\nAvailable Actions:\n{'has_search_bar': ${c === 'home' ? 'True' : 'False'}, 'clickables': [${CLICKS[c]!.map((x) => `'${x}'`).join(', ')}]}`;
  const messages: ChatMessage[] = [{ role: 'system', content: 'You are web shopping.' }, { role: 'user', content: `The initial observation:\n${HOME}${avail('home')}` }];
  turns.forEach((t, i) => {
    if (t === 'text') {
      messages.push({ role: 'assistant', content: 'thinking' });
      return;
    }
    const [tool, value, page, c] = t;
    messages.push({ role: 'assistant', content: null, toolCalls: [{ id: `c${i}`, name: tool, arguments: JSON.stringify({ value }) }] });
    messages.push({ role: 'tool', toolCallId: `c${i}`, content: `Action: x\n\nObservation:\n${page}${avail(c)}` });
  });
  return record('webshop', messages, outcome);
}

describe('WebShop signatures', () => {
  it('reads price limits and option groups', () => {
    expect(priceLimit(INSTRUCTION)).toBe(30);
    expect(hasOptionGroups(product('1.00'))).toBe(true);
    expect(hasOptionGroups("Back to Search [SEP] < Prev [SEP] Men's Shorts [SEP] Price: $1.00 [SEP] Buy Now")).toBe(false);
  });

  it('finds each signature in a trace that shows it', () => {
    const open: [string, string, string, string][] = [
      ['search_action', 'shorts', RESULTS, 'results'],
      ['click_action', 'b000000001', product('45.00'), 'product'],
    ];
    expect(detectWebShopSignatures(webshop([...open, ['click_action', 'buy now', 'Thank you', 'home']]))).toEqual(new Set(['premature_buy', 'over_budget_buy']));
    const loop = webshop([open[0]!, ['click_action', 'back to search', HOME, 'home'], open[0]!]);
    expect(detectWebShopSignatures(loop)).toEqual(new Set(['search_loop']));
    const stall = webshop([...open, ['click_action', 'description', 'd', 'product'], ['click_action', '< prev', product('45.00'), 'product'], ['click_action', 'reviews', 'r', 'product']]);
    expect(detectWebShopSignatures(stall)).toEqual(new Set(['product_stall']));
    expect(detectWebShopSignatures(webshop(['text']))).toEqual(new Set(['text_only_turns']));
    expect(detectWebShopSignatures(webshop([open[0]!, ['click_action', 'b999999999', RESULTS, 'results']]))).toEqual(new Set(['invalid_click']));
  });

  it('counts only scored episodes, and never reads detail', () => {
    const bad = webshop([['search_action', 'a', RESULTS, 'results'], ['search_action', 'a', RESULTS, 'results']]);
    const infra = { ...bad, outcome: 'model_error' as const };
    const withDetail = { ...bad, detail: { get answer(): never { throw new Error('detail was read'); } } };
    const tally = tallyBench([bad, infra, withDetail], 1, WEBSHOP_SIGNATURE_IDS, detectWebShopSignatures, { minEpisodes: 2, minShare: 0.5 });
    expect(tally).toMatchObject({ episodes: 3, scored: 2, failed: 2, infrastructure: 1 });
    expect(tally.signatures[0]).toEqual({ id: 'search_loop', failed: 2, passed: 0, kept: true });
  });
});

import type { WebShopGoal } from '../../../environments/webshop/goals.js';
import { matchOptionValue } from '../../../environments/webshop/gold-purchase.js';
import { extractInstructionText } from '../../../environments/webshop/requirement-parser.js';
import { goalOptionValues } from '../../../environments/webshop/reward.js';
import type { WebShopEngine } from '../../../environments/webshop/webshop-engine.js';
import { WEBSHOP_TEXT_ACTION_HINTS_HEADER } from '../../../environments/webshop/webshop-text-prompts.js';
import { simChance, simHash } from '../../dbbench/simulation/sim-rng.js';
import { readWireRequest, type ReadMessage } from '../../dbbench/simulation/wire-messages.js';
import { faultsNamedByHint, WEBSHOP_FAULTS, type WebShopFault, type WebShopSimSettings } from './fault-profile.js';
import { isJsSpaceCode, lastLineTerminator } from '../../../python/text-scan.js';

/** Why the target acted as it did (for tests and logs). */
export type WebShopSimTag =
  | 'search'
  | 'title_search'
  | 'loop_search'
  | 'loop_back'
  | 'next_page'
  | 'back'
  | 'distractor'
  | 'over_budget_buy'
  | 'leave_product'
  | 'open'
  | 'option'
  | 'early_buy'
  | 'buy'
  | 'stall'
  | 'stall_back'
  | 'give_up_text'
  | 'done_text';

export type WebShopSimTurn =
  | { kind: 'tool_call'; name: 'search_action' | 'click_action'; arguments: { keywords: string } | { value: string }; content: string; tag: WebShopSimTag; taskKey: string }
  | { kind: 'text'; content: string; tag?: WebShopSimTag; taskKey?: string; problem?: { code: 'unknown_task' | 'bad_request'; message: string } };

/** Results pages the target looks through before searching by the product title instead. */
const MAX_RESULT_PAGES = 3;
/** Stall clicks on a product's sub-pages before the give-up target stops calling tools. */
const MAX_STALL_CLICKS = 6;
const STALL_SECTIONS = ['description', 'features', 'reviews'] as const;
const BLOCKABLE: ReadonlySet<WebShopSimTag> = new Set(['loop_search', 'loop_back', 'over_budget_buy', 'early_buy', 'buy', 'stall', 'search', 'title_search']);
const FAULT_OF_TAG: Partial<Record<WebShopSimTag, WebShopFault>> = {
  loop_search: 'search_loop',
  loop_back: 'search_loop',
  over_budget_buy: 'over_budget',
  distractor: 'over_budget',
  early_buy: 'early_buy',
  stall: 'give_up',
  stall_back: 'give_up',
};

interface GoalPlan {
  index: number;
  goal: WebShopGoal;
  asin: string;
  title: string;
  /** The title as product pages show it, to tell the goal product from others. */
  pageTitle: string;
  /** Option values to click on the goal product, in goal order. */
  options: string[];
  goodQuery: string;
  loopQuery: string;
}

/** What the target remembers while replaying its conversation. */
interface Memory {
  fixed: Set<WebShopFault>;
  useTitle: boolean;
  pagesSeen: number;
  distractorTried: boolean;
  optionsClicked: number;
  stallClicks: number;
  lastPage: Page['kind'] | '';
}

type Page =
  | { kind: 'home' }
  | { kind: 'results'; listed: { asin: string; price: number }[]; hasNext: boolean }
  | { kind: 'product'; observation: string }
  | { kind: 'sub' }
  | { kind: 'other' };

export interface WebShopSimPolicy {
  readonly settings: WebShopSimSettings;
  decideTurn(requestBody: unknown): WebShopSimTurn;
}

/**
 * The simulated WebShop target. It is stateless over the conversation: each request is replayed from
 * the first observation (which names the goal through its instruction) to the last, re-deriving what it
 * did, which of its actions were blocked and which hints it followed, and then decides the next turn.
 */
export function createWebShopSimPolicy(options: { engine: WebShopEngine; settings: WebShopSimSettings }): WebShopSimPolicy {
  const { engine, settings } = options;
  const byInstruction = new Map<string, number>();
  engine.goalSet.goals.forEach((goal, index) => {
    const key = goal.instructionText.trim();
    if (!byInstruction.has(key)) byInstruction.set(key, index);
  });
  const plans = new Map<number, GoalPlan>();
  const planOf = (index: number): GoalPlan => {
    let plan = plans.get(index);
    if (!plan) {
      plan = buildPlan(engine, index);
      plans.set(index, plan);
    }
    return plan;
  };

  return {
    settings,
    decideTurn(body) {
      const read = readWireRequest(body);
      if (!read.ok) return { kind: 'text', content: read.message, problem: { code: 'bad_request', message: read.message } };
      const messages = read.toolNames === undefined || read.toolNames.length === 0 ? textTaskMessages(read.messages) : read.messages;
      const firstObs = messages.find((m) => m.role !== 'system' && m.role !== 'assistant' && m.text.includes('Instruction: [SEP]'));
      const instruction = firstObs ? extractInstructionText(observationOf(firstObs.text) ?? firstObs.text) : '';
      const index = byInstruction.get(instruction);
      if (index === undefined) {
        const message = 'The simulated WebShop target found no known goal instruction in the conversation.';
        return { kind: 'text', content: message, problem: { code: 'unknown_task', message } };
      }
      return replay(planOf(index), messages, settings);
    },
  };
}

function buildPlan(engine: WebShopEngine, index: number): GoalPlan {
  const goal = engine.goalSet.goals[index]!;
  const product = engine.catalogue.byAsin.get(goal.asin);
  const available = (product?.options ?? []).flatMap((o) => o.values.map((v) => v.toLowerCase()));
  const options = goalOptionValues(goal.goalOptions)
    .map((value) => matchOptionValue(value, available))
    .filter((v): v is string => v !== undefined);
  return {
    index,
    goal,
    asin: goal.asin,
    title: (product?.title ?? goal.name).toLowerCase(),
    pageTitle: product?.title ?? goal.name,
    options,
    goodQuery: goalWords(goal.instructionText),
    loopQuery: goal.instructionText.toLowerCase(),
  };
}

/** The goal's words: the instruction without its lead-in, option clauses and price clause. */
export function goalWords(instruction: string): string {
  let text = instruction.toLowerCase();
  text = withoutPriceClause(text);
  text = withoutOptionClause(text);
  text = text.replace(/^(?:find me|i need|i want|i am looking for|i'm looking for|looking for|get me|buy me|show me)\s+/, '');
  return text.replace(/,/g, '').replace(/\s+/g, ' ').trim();
}

/**
 * A v0.2 text-protocol request (no tools) as the FC replay reads it. The task starts at the first user
 * message that is a live observation: the one-shot example writes its available actions JSON-style
 * (`{"has_search_bar": …`), live turns as a Python repr (`{'has_search_bar': …`). Everything before it
 * (the prompt, "Ok.", the one-shot) is left out, except the prompt's tips section, passed on as the
 * system message so that tips are read as in FC mode (the action-hints block, like FC tool
 * descriptions, is not read).
 */
export function textTaskMessages(messages: readonly ReadMessage[]): ReadMessage[] {
  const start = messages.findIndex((m) => m.role === 'user' && isLiveTextObservation(m.text));
  if (start < 0) return [];
  const prompt = messages.slice(0, start).find((m) => m.role === 'user');
  const tips = prompt ? prompt.text.split(WEBSHOP_TEXT_ACTION_HINTS_HEADER)[0]! : '';
  return [{ role: 'system', text: tips }, ...messages.slice(start)];
}

function isLiveTextObservation(text: string): boolean {
  return /^Observation:\n[\s\S]*\n\nAvailable Actions:\n\{'has_search_bar': /.test(text);
}

/** The observation inside an observation message, or undefined for any other message. */
function observationOf(text: string): string | undefined {
  const m = /^(?:The initial observation:\n|Observation:\n|Action: [^\n]*\n\nObservation:\n)([\s\S]*?)(?:\n\nAvailable Actions:\n[\s\S]*)?$/.exec(text);
  return m ? m[1] : undefined;
}

function pageOf(observation: string): Page {
  if (observation.startsWith('WebShop [SEP]') && observation.trimEnd().endsWith('[SEP] Search')) return { kind: 'home' };
  if (observation.includes('Total results:')) {
    const listed = [...observation.matchAll(/\[SEP\] ([A-Z0-9]{10}) \[SEP\] [^[]*?\[SEP\] \$(\d[\d,]*(?:\.\d+)?)/g)].map((m) => ({ asin: m[1]!, price: Number(m[2]!.replace(/,/g, '')) }));
    return { kind: 'results', listed, hasNext: observation.includes('[SEP] Next >') };
  }
  if (observation.includes('[SEP] Buy Now')) return { kind: 'product', observation };
  if (observation.includes('[SEP] < Prev')) return { kind: 'sub' };
  return { kind: 'other' };
}

function replay(plan: GoalPlan, messages: ReadMessage[], settings: WebShopSimSettings): WebShopSimTurn {
  const taskKey = simHash('webshop-goal', plan.goal.instructionText).slice(0, 16);
  const drawn = new Set(WEBSHOP_FAULTS.filter((f) => simChance(settings.seed, taskKey, `fault:${f}`, settings.faults[f])));
  const memory: Memory = { fixed: new Set(), useTitle: false, pagesSeen: 0, distractorTried: false, optionsClicked: 0, stallClicks: 0, lastPage: '' };
  const comply = (hint: string, key: string): void => {
    for (const fault of faultsNamedByHint(hint)) {
      if (simChance(settings.seed, taskKey, `comply:${key}:${fault}`, settings.comply)) memory.fixed.add(fault);
    }
  };
  const system = messages.find((m) => m.role === 'system');
  const tipsAt = system ? system.text.indexOf('Some tips that may help for this task:') : -1;
  if (system && tipsAt >= 0) comply(system.text.slice(tipsAt), 'system');

  let observation = '';
  let pending: { tag: WebShopSimTag; before: string } | undefined;
  const active = (fault: WebShopFault): boolean => drawn.has(fault) && !memory.fixed.has(fault);
  messages.forEach((message, i) => {
    if (message.role === 'system') return;
    if (message.role === 'assistant') {
      const made = decide(plan, pageOf(observation), memory, active, taskKey);
      pending = made.kind === 'tool_call' ? { tag: made.tag, before: observation } : undefined;
      return;
    }
    const obs = observationOf(message.text);
    if (obs === undefined) {
      if (message.role === 'user' && message.text !== 'Task limit reached.') comply(message.text, `m${i}`);
      return;
    }
    if (obs !== 'You must call a tool! NEVER respond with only text.') {
      if (pending && BLOCKABLE.has(pending.tag) && obs === pending.before) noteBlocked(pending.tag, memory);
      observation = obs;
    }
    pending = undefined;
  });
  if (observation === '') return { kind: 'text', content: 'I see no observation to act on.', tag: 'done_text', taskKey };
  return decide(plan, pageOf(observation), memory, active, taskKey);
}

function noteBlocked(tag: WebShopSimTag, memory: Memory): void {
  const fault = FAULT_OF_TAG[tag];
  if (fault) memory.fixed.add(fault);
  if (tag === 'buy') memory.optionsClicked = 0;
  if (tag === 'search' || tag === 'title_search') memory.useTitle = !memory.useTitle;
}

function decide(plan: GoalPlan, page: Page, memory: Memory, active: (fault: WebShopFault) => boolean, taskKey: string): WebShopSimTurn {
  const arrived = memory.lastPage !== page.kind;
  if (page.kind === 'product' && memory.lastPage !== 'product' && memory.lastPage !== 'sub') memory.optionsClicked = 0;
  memory.lastPage = page.kind;
  return decideOnPage(plan, page, memory, active, taskKey, arrived);
}

function decideOnPage(plan: GoalPlan, page: Page, memory: Memory, active: (fault: WebShopFault) => boolean, taskKey: string, arrived: boolean): WebShopSimTurn {
  const search = (keywords: string, tag: WebShopSimTag, content: string): WebShopSimTurn => ({ kind: 'tool_call', name: 'search_action', arguments: { keywords }, content, tag, taskKey });
  const click = (value: string, tag: WebShopSimTag, content: string): WebShopSimTurn => ({ kind: 'tool_call', name: 'click_action', arguments: { value }, content, tag, taskKey });
  const goalAsin = plan.asin.toLowerCase();
  switch (page.kind) {
    case 'home':
      if (arrived) memory.pagesSeen = 0;
      if (active('search_loop')) return search(plan.loopQuery, 'loop_search', 'I will search with the instruction.');
      if (memory.useTitle) return search(plan.title, 'title_search', 'I will search for the product by its name.');
      return search(plan.goodQuery, 'search', 'I will search for the product.');
    case 'results': {
      if (active('search_loop')) return click('back to search', 'loop_back', 'None of these look right; I will search again.');
      if (active('over_budget') && !memory.distractorTried) {
        const budget = plan.goal.priceUpper;
        const pricey = page.listed.find((p) => p.asin !== plan.asin && p.price > budget * 1.05);
        if (pricey && page.listed.some((p) => p.asin === plan.asin)) {
          memory.distractorTried = true;
          return click(pricey.asin.toLowerCase(), 'distractor', 'This one looks good.');
        }
      }
      if (page.listed.some((p) => p.asin === plan.asin)) {
        return click(goalAsin, 'open', 'This product matches the instruction.');
      }
      if (page.hasNext && memory.pagesSeen < MAX_RESULT_PAGES - 1) {
        memory.pagesSeen++;
        return click('next >', 'next_page', 'I will look at the next page.');
      }
      memory.useTitle = !memory.useTitle;
      return click('back to search', 'back', 'I will try other keywords.');
    }
    case 'product': {
      if (!page.observation.includes(`[SEP] ${plan.pageTitle} [SEP]`)) {
        if (memory.fixed.has('over_budget') || !active('over_budget')) return click('< prev', 'leave_product', 'This product is over the budget; I will go back.');
        return click('buy now', 'over_budget_buy', 'I will buy this product.');
      }
      if (active('give_up')) {
        if (memory.stallClicks >= MAX_STALL_CLICKS) return { kind: 'text', content: 'I am not sure this product is right, so I will stop here.', tag: 'give_up_text', taskKey };
        const section = STALL_SECTIONS[Math.floor(memory.stallClicks / 2) % STALL_SECTIONS.length]!;
        memory.stallClicks++;
        return click(section, 'stall', `Let me read the ${section} first.`);
      }
      if (active('early_buy') && plan.options.length > 0 && memory.optionsClicked === 0) return click('buy now', 'early_buy', 'This is the product; I will buy it.');
      const next = plan.options[memory.optionsClicked];
      if (next !== undefined) {
        memory.optionsClicked++;
        return click(next, 'option', `I will select ${next}.`);
      }
      return click('buy now', 'buy', 'Everything is selected; I will buy it.');
    }
    case 'sub':
      if (active('give_up')) memory.stallClicks++;
      return click('< prev', active('give_up') ? 'stall_back' : 'back', 'I will go back to the product.');
    case 'other':
      return { kind: 'text', content: 'I have finished shopping.', tag: 'done_text', taskKey };
  }
}

const PRICE_CLAUSE = 'and price lower than';

/**
 * `text.replace(/,?\s*and price lower than.*$/, '')` by scans: cut before the first clause after which no
 * line ends, with the whitespace and one comma before it (the regex measures each whitespace run again
 * from every position in it).
 */
export function withoutPriceClause(text: string): string {
  const at = text.indexOf(PRICE_CLAUSE, lastLineTerminator(text) + 1);
  if (at < 0) return text;
  let start = at;
  while (start > 0 && isJsSpaceCode(text.charCodeAt(start - 1))) start--;
  if (start > 0 && text.charCodeAt(start - 1) === 0x2c) start--;
  return text.slice(0, start);
}

function isLowerOrSpace(code: number): boolean {
  return code === 0x20 || (code >= 0x61 && code <= 0x7a);
}

/**
 * `text.replace(/\s+with\s+[a-z ]+:\s.*$/, '')` by scans. After `with` and its whitespace the name can
 * only start in the run of spaces that ends that whitespace (any other whitespace is not in `[a-z ]`),
 * so each `with` is decided once; the end of the `[a-z ]` run is remembered across them.
 */
export function withoutOptionClause(text: string): string {
  const lastBreak = lastLineTerminator(text);
  let nameEnd = -1;
  for (let w = text.indexOf('with', 1); w >= 0; w = text.indexOf('with', w + 1)) {
    if (!isJsSpaceCode(text.charCodeAt(w - 1)) || !isJsSpaceCode(text.charCodeAt(w + 4))) continue;
    const after = w + 4;
    let runEnd = after;
    while (runEnd < text.length && isJsSpaceCode(text.charCodeAt(runEnd))) runEnd++;
    let spaces = runEnd;
    while (spaces > after + 1 && text.charCodeAt(spaces - 1) === 0x20) spaces--;
    if (nameEnd < spaces) {
      nameEnd = spaces;
      while (nameEnd < text.length && isLowerOrSpace(text.charCodeAt(nameEnd))) nameEnd++;
    }
    const valid = nameEnd > spaces && text.charCodeAt(nameEnd) === 0x3a && isJsSpaceCode(text.charCodeAt(nameEnd + 1)) && lastBreak < nameEnd + 2;
    if (!valid) continue;
    let start = w;
    while (start > 0 && isJsSpaceCode(text.charCodeAt(start - 1))) start--;
    return text.slice(0, start);
  }
  return text;
}

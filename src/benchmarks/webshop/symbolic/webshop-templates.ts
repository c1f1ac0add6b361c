/**
 * The WebShop hook templates of the symbolic engineer. Each hook is one fixed Python source; the kept
 * signatures go in as the list `on`, which switches the matching parts on. Hooks read only the WebShop
 * ctx of protocol.md §4.2 (`action`, `state`, `predicates`, `webshop`, `observation`, `step`) and the
 * episode notebook; they never return an action, so the wrapping rules of rewrite/force do not apply.
 *
 * nb keys: `hinted` (per message: [times sent, last step]), `blocks` (per guard: times blocked).
 */
import { PATCH_SCHEMA_VERSION } from '../../../patch/index.js';
import { BLOCK_HELPER, pyList, type CodeHookPatch } from '../../../engineer/symbolic/python-kit.js';
import { WEBSHOP_SIGNATURE_IDS, type WebShopSignatureId } from './webshop-signatures.js';

export const WEBSHOP_SKILLS: Readonly<Record<WebShopSignatureId, string>> = Object.freeze({
  premature_buy:
    'On a product page, click one value in every option group (color, size, style and the like) that matches the instruction before you click buy now.',
  over_budget_buy:
    'Respect the price limit of the instruction: check the price on the product page and go back to search if the item costs more.',
  search_loop:
    'Never send the same search twice. If the results look wrong, use fewer, more specific keywords (product type plus key attributes) instead of the whole instruction, and open a promising result.',
  product_stall:
    'Do not browse description, features and reviews over and over: decide on the product page, select the options and buy, or go back to the results.',
  text_only_turns: 'Every turn must be a tool call (search_action or click_action); a reply with only text wastes the turn.',
  invalid_click: 'Click only values that appear in the clickables list of the current page, spelled exactly as listed.',
});

const SOFT_SKILLS = [
  'Search with the product type and its key attributes, open a matching result, select every option the instruction names, check the price, then buy now.',
];

const GUARDED: readonly WebShopSignatureId[] = ['premature_buy', 'over_budget_buy', 'search_loop', 'invalid_click'];
const HINTED: readonly WebShopSignatureId[] = ['premature_buy', 'over_budget_buy', 'search_loop', 'product_stall', 'text_only_turns'];

const ON_INIT = `def hook(ctx, nb):
    nb['hinted'] = {}
    nb['blocks'] = {}
    return {'skills': {{SKILLS}}}
`;

const MISSING = `def missing(w):
    opts = w.get('attribute_options') or {}
    sel = w.get('selected_attributes') or {}
    return [k for k in sorted(opts.keys()) if opts.get(k) and k not in sel]
`;

const MAKE_PRE_HINT = `${MISSING}
def hook(ctx, nb):
    on = {{ON}}
    s = ctx.get('state') or {}
    p = ctx.get('predicates') or {}
    w = ctx.get('webshop') or {}
    step = int(ctx.get('step') or 0)
    obs = str(ctx.get('observation') or '')
    product = s.get('page_type') == 'product_detail'
    gone = missing(w)
    key = ''
    msg = ''
    if 'text_only_turns' in on and obs.startswith('You must call a tool'):
        key = 'textonly'
        msg = 'Call a tool now: search_action on the search page, click_action with a value from the clickables list elsewhere.'
    elif 'over_budget_buy' in on and product and p.get('product_price_over_budget'):
        key = 'budget'
        msg = 'This product costs more than the price limit in the instruction. Do not buy it; go back to search and pick a cheaper matching item.'
    elif 'premature_buy' in on and product and gone:
        key = 'options'
        msg = 'Before buy now, select one value in each option group still unselected (' + ', '.join(gone) + ') that matches the instruction.'
    elif 'product_stall' in on and p.get('product_page_stalled') and int(s.get('product_stall_turns') or 0) >= 3:
        key = 'stall'
        msg = 'You have spent several turns on this product. Decide now: select the options the instruction names and click buy now, or go back to the results.'
    elif 'search_loop' in on and p.get('search_loop_detected'):
        key = 'loop'
        msg = 'You are repeating searches. Use different, shorter keywords (product type plus key attributes), then open a result instead of going back to search.'
    if not msg:
        return None
    hinted = nb.get('hinted') or {}
    seen = hinted.get(key) or [0, -9]
    if seen[0] >= 2 or step - seen[1] < 2:
        return None
    hinted[key] = [seen[0] + 1, step]
    nb['hinted'] = hinted
    return {'message': msg}
`;

const ON_BEFORE_ACTION = `${MISSING}
${BLOCK_HELPER}

def hook(ctx, nb):
    on = {{ON}}
    a = ctx.get('action') or {}
    s = ctx.get('state') or {}
    p = ctx.get('predicates') or {}
    w = ctx.get('webshop') or {}
    tool = str(a.get('tool') or '')
    val = str(a.get('value_normalized') or '')
    out = None
    if tool == 'click_action' and val == 'buy now':
        gone = missing(w)
        if 'over_budget_buy' in on and p.get('product_price_over_budget'):
            out = block(nb, 'budget', 1, 'Blocked: the price on this page is over the limit in the instruction. Go back to search and choose a cheaper matching product.')
        if out is None and 'premature_buy' in on and (p.get('required_options_unselected') or gone):
            which = ', '.join(gone) if gone else 'the ones the instruction names'
            out = block(nb, 'options', 2, 'Blocked: choose the options first (' + which + '). Click the value that matches the instruction in each group, then buy now.')
    if out is None and tool == 'search_action' and 'search_loop' in on and val and val in [str(q).lower().strip() for q in (w.get('search_queries') or [])]:
        out = block(nb, 'search', 2, 'Blocked: you already ran this exact search. Use different, shorter keywords, or open one of the results you got.')
    clickables = [str(c) for c in (s.get('clickables') or [])]
    if out is None and tool == 'click_action' and 'invalid_click' in on and clickables and val not in clickables:
        out = block(nb, 'click', 3, 'Blocked: that value is not clickable on this page. Click one of the listed clickables, spelled exactly as shown.')
    return out
`;

export type WebShopPatch = CodeHookPatch<'webshop'>;

const FIX: Readonly<Record<WebShopSignatureId, string>> = {
  premature_buy: 'select every option group before buy now',
  over_budget_buy: 'do not buy over the price limit',
  search_loop: 'do not repeat a search',
  product_stall: 'decide on a product page instead of browsing its tabs',
  text_only_turns: 'always call a tool',
  invalid_click: 'click only listed values',
};

/**
 * The WebShop patch for the kept signatures (`ranked`, most frequent first). A batch whose only kept
 * signatures are guarded gets a single on_before_action; hints and skills come with hint-only ones.
 * With none kept, the soft patch: one general skill.
 */
export function composeWebShopPatch(ranked: readonly WebShopSignatureId[]): { patch: WebShopPatch; templates: string[] } {
  const on = WEBSHOP_SIGNATURE_IDS.filter((id) => ranked.includes(id));
  const base = { schema_version: PATCH_SCHEMA_VERSION, benchmark: 'webshop' } as const;
  if (on.length === 0) {
    return {
      patch: {
        ...base,
        description: 'Symbolic engineer (rule-based) soft-hint patch for WebShop: no failure pattern recurred, so only general shopping advice.',
        actions: [{ type: 'add_code_hook', hook: 'on_init', code: ON_INIT.replace('{{SKILLS}}', pyList(SOFT_SKILLS)) }],
      },
      templates: ['on_init: soft skills'],
    };
  }
  const hinted = on.filter((id) => HINTED.includes(id));
  const guarded = on.filter((id) => GUARDED.includes(id));
  const hintOnly = on.filter((id) => !GUARDED.includes(id));
  const actions: WebShopPatch['actions'] = [];
  const templates: string[] = [];
  if (hintOnly.length > 0) {
    const skills = ranked.slice(0, 5).map((id) => WEBSHOP_SKILLS[id]);
    actions.push({ type: 'add_code_hook', hook: 'on_init', code: ON_INIT.replace('{{SKILLS}}', pyList(skills)) });
    templates.push(`on_init: skills[${ranked.slice(0, 5).join(', ')}]`);
    actions.push({ type: 'add_code_hook', hook: 'make_pre_hint', code: MAKE_PRE_HINT.replace('{{ON}}', pyList(hinted)) });
    templates.push(`make_pre_hint: hints[${hinted.join(', ')}]`);
  }
  if (guarded.length > 0) {
    actions.push({ type: 'add_code_hook', hook: 'on_before_action', code: ON_BEFORE_ACTION.replace('{{ON}}', pyList(guarded)) });
    templates.push(`on_before_action: guards[${guarded.join(', ')}]`);
  }
  const description = `Symbolic engineer (rule-based) patch for WebShop failure patterns that recur across the batch: ${on.map((id) => FIX[id]).join('; ')}.`;
  return { patch: { ...base, description, actions }, templates };
}

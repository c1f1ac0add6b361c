/**
 * The ALFWorld hook templates of the symbolic engineer. Each hook is one fixed Python source; the kept
 * signatures go in as the list `on`, which switches the matching parts on. Hooks read only the ALFWorld
 * ctx of protocol.md §4.3 (`action`, `task`, `world`, `observation`, `admissible`, `step`) and the
 * episode notebook. No string literal names a numbered instance (§3.6): the only action a hook ever
 * returns is copied from `ctx.admissible`.
 *
 * nb keys: `transformed` (objects heated/cooled/cleaned so far), `placed` (target objects put at a
 * destination of the goal's type), `last_failed` (the last action if it gave "Nothing happens."), `outputs`
 * (the agent's last two raw outputs that ran),
 * `hinted` (per message: [times sent, last step]), `blocks` (per guard: times blocked), `rewrites`.
 */
import { PATCH_SCHEMA_VERSION } from '../../../patch/index.js';
import { ALFWORLD_SIGNATURE_IDS, type AlfworldSignatureId } from './alfworld-signatures.js';
import { BLOCK_HELPER, pyList, type CodeHookPatch } from '../../../engineer/symbolic/python-kit.js';

/** One line of advice per signature, for on_init; task-independent. */
export const ALFWORLD_SKILLS: Readonly<Record<AlfworldSignatureId, string>> = Object.freeze({
  skip_transform:
    'If the goal says hot, cool or clean, transform the object first: heat it with a microwave, cool it with a fridge or clean it with a sinkbasin while holding it, and only then go to the destination and put it there.',
  wrong_destination:
    'Put the object only in/on a receptacle of the exact type the goal names; any other receptacle does not count.',
  repeat_failed:
    'When an action gives "Nothing happens.", it had no effect: never send it again unchanged; choose a different command from AVAILABLE ACTIONS.',
  transform_loop:
    'Heating, cooling or cleaning is needed once. After it succeeds, do not put the object into the appliance or transform it again; carry it to the destination.',
  forget_second:
    'A goal with two objects needs two separate objects placed at the destination: after placing the first, search for another one of the same type.',
  invalid_action:
    'Copy commands exactly as listed in AVAILABLE ACTIONS, including the instance number of every object and receptacle.',
});

const SOFT_SKILLS = [
  'Read the goal for the object type, the destination type and any hot/cool/clean step, and plan the steps before acting.',
  'Copy commands exactly from AVAILABLE ACTIONS; an action that gives "Nothing happens." must not be repeated unchanged.',
];

const GUARDED: readonly AlfworldSignatureId[] = ['skip_transform', 'wrong_destination', 'repeat_failed', 'transform_loop', 'invalid_action'];
const HINTED: readonly AlfworldSignatureId[] = ['skip_transform', 'wrong_destination', 'repeat_failed', 'transform_loop', 'forget_second'];

const KIND_OF = String.raw`def kind_of(name):
    return re.sub(r'\s+\d+$', '', str(name).strip().lower())
`;

const NEED = String.raw`def need(t):
    tt = str(t.get('task_type') or '').lower()
    for v in ['heat', 'cool', 'clean']:
        if v in tt:
            return v
    return ''
`;

const ON_INIT = `def hook(ctx, nb):
    nb['transformed'] = []
    nb['placed'] = []
    nb['last_failed'] = ''
    nb['outputs'] = []
    nb['hinted'] = {}
    nb['blocks'] = {}
    nb['rewrites'] = 0
    return {'skills': {{SKILLS}}}
`;

const ON_POST_STEP = String.raw`${KIND_OF}
def hook(ctx, nb):
    a = ctx.get('action') or {}
    t = ctx.get('task') or {}
    act = ' '.join(str(a.get('final_action') or a.get('normalized') or '').lower().split())
    obs = str(ctx.get('observation') or '').lower()
    failed = 'nothing happens' in obs
    nb['last_failed'] = act if failed else ''
    outs = nb.get('outputs') or []
    outs.append(' '.join(str(a.get('raw') or '').lower().split()))
    nb['outputs'] = outs[-2:]
    if failed or act == '':
        return None
    m = re.search(r'^(heat|cool|clean) (.+?) with ', act)
    if m:
        done = nb.get('transformed') or []
        if m.group(2) not in done:
            done.append(m.group(2))
        nb['transformed'] = done
    m = re.search(r'^put (.+?) in/on (.+)$', act)
    if m and kind_of(m.group(1)) == str(t.get('target_type') or '').lower() and kind_of(m.group(2)) == str(t.get('destination_type') or '').lower():
        placed = nb.get('placed') or []
        if m.group(1) not in placed:
            placed.append(m.group(1))
        nb['placed'] = placed
    return None
`;

const MAKE_PRE_HINT = String.raw`${KIND_OF}
${NEED}
def hook(ctx, nb):
    on = {{ON}}
    t = ctx.get('task') or {}
    w = ctx.get('world') or {}
    tgt = str(t.get('target_type') or '').lower()
    dst = str(t.get('destination_type') or '').lower()
    step = int(ctx.get('step') or 0)
    v = need(t)
    how = {'heat': 'heat it with a microwave', 'cool': 'cool it with a fridge', 'clean': 'clean it with a sinkbasin'}.get(v, '')
    past = {'heat': 'heated', 'cool': 'cooled', 'clean': 'cleaned'}.get(v, '')
    held = [str(x).lower() for x in (w.get('inventory') or []) if tgt and kind_of(x) == tgt]
    done = nb.get('transformed') or []
    key = ''
    msg = ''
    if 'repeat_failed' in on and nb.get('last_failed'):
        key = 'failed'
        msg = 'Your last action gave "Nothing happens." and changed nothing. Do not repeat it; pick a different command copied exactly from AVAILABLE ACTIONS.'
    elif 'skip_transform' in on and v and held and held[0] not in done and dst:
        key = 'transform'
        msg = f'The task needs the {tgt} {past} before it goes in/on the {dst}: {how} first, then put it at the {dst}.'
    elif 'transform_loop' in on and v and held and held[0] in done and dst:
        key = 'loop'
        msg = f'The {tgt} you hold is already {past}. Do not put it back or {v} it again; go to the {dst} and put it there.'
    elif 'forget_second' in on and 'two' in str(t.get('task_type') or '') and len(nb.get('placed') or []) == 1 and not held and tgt:
        key = 'second'
        msg = f'One {tgt} is placed, but the task needs two. Find another {tgt} (a different one) and put it in/on the {dst} too.'
    elif 'wrong_destination' in on and held and dst and (not v or held[0] in done):
        key = 'dest'
        msg = f'Carry the {tgt} to a {dst}, the destination the task names, and put it there; no other receptacle counts.'
    if not msg:
        return None
    hinted = nb.get('hinted') or {}
    seen = hinted.get(key) or [0, -9]
    cap = 4 if key == 'failed' else 2
    if seen[0] >= cap or (key != 'failed' and step - seen[1] < 3):
        return None
    hinted[key] = [seen[0] + 1, step]
    nb['hinted'] = hinted
    return {'message': msg}
`;

const ON_BEFORE_ACTION = String.raw`${KIND_OF}
${NEED}
${BLOCK_HELPER}

def listed(act, adm):
    bare = re.sub(r'\s\d+(?=\s|$)', '', act)
    best = ''
    score = 0.0
    for c in adm:
        if re.sub(r'\s\d+(?=\s|$)', '', c) != bare:
            continue
        r = SequenceMatcher(None, act, c).ratio()
        if r > score:
            best = c
            score = r
    return best

def hook(ctx, nb):
    on = {{ON}}
    a = ctx.get('action') or {}
    t = ctx.get('task') or {}
    act = ' '.join(str(a.get('final_action') or a.get('normalized') or '').lower().split())
    adm = [' '.join(str(x).lower().split()) for x in (ctx.get('admissible') or [])]
    tgt = str(t.get('target_type') or '').lower()
    dst = str(t.get('destination_type') or '').lower()
    v = need(t)
    past = {'heat': 'heated', 'cool': 'cooled', 'clean': 'cleaned'}.get(v, '')
    done = nb.get('transformed') or []
    if act == '':
        return None
    out = None
    m = re.search(r'^put (.+?) in/on (.+)$', act)
    if m and tgt and dst and kind_of(m.group(1)) == tgt:
        obj = m.group(1)
        where = kind_of(m.group(2))
        if 'skip_transform' in on and v and obj not in done and where == dst:
            out = block(nb, 'transform', 2, f'Not yet: the task needs the {tgt} {past} before it goes in/on the {dst}. {v.capitalize()} it first while holding it.')
        if out is None and 'transform_loop' in on and v and obj in done and where != dst:
            out = block(nb, 'loop', 2, f'The {tgt} is already {past}; do not put it there. Go to the {dst} and put it there.')
        if out is None and 'wrong_destination' in on and where != dst and (not v or obj in done):
            out = block(nb, 'dest', 2, f'The task asks for the {tgt} in/on a {dst}, not a {where}. Go to a {dst} and put it there.')
    m = re.search(r'^(heat|cool|clean) (.+?) with ', act)
    if out is None and m and 'transform_loop' in on and m.group(2) in done:
        out = block(nb, 'again', 2, f'That object is already {m.group(1)}ed enough; do it once only. Go to the {dst} and put it there.')
    raw = ' '.join(str(a.get('raw') or '').lower().split())
    outs = nb.get('outputs') or []
    if out is None and 'repeat_failed' in on and raw and len(outs) == 2 and outs[0] == raw and outs[1] == raw:
        out = block(nb, 'same', 3, 'You sent this exact output twice in a row; a third identical output ends the task. Choose a different command from AVAILABLE ACTIONS.')
    if out is None and adm and act in adm and raw and raw not in adm and ('invalid_action' in on or 'repeat_failed' in on):
        pick = listed(raw, adm)
        if pick and pick != act and (nb.get('rewrites') or 0) < 6:
            nb['rewrites'] = (nb.get('rewrites') or 0) + 1
            return {'kind': 'rewrite_action', 'action': pick, 'message': 'Your command was not in AVAILABLE ACTIONS; the listed command with the instance number was used instead. Copy commands exactly as listed.'}
        if not pick and raw.split(' ')[0] != act.split(' ')[0]:
            out = block(nb, 'invalid', 3, 'That command is not in AVAILABLE ACTIONS right now, so it cannot be done here. Choose a command copied exactly from the list.')
    if out is None and adm and act not in adm and ('invalid_action' in on or 'repeat_failed' in on):
        pick = listed(act, adm)
        if pick and (nb.get('rewrites') or 0) < 6:
            nb['rewrites'] = (nb.get('rewrites') or 0) + 1
            return {'kind': 'rewrite_action', 'action': pick, 'message': 'Your command was not in AVAILABLE ACTIONS; the listed command with the instance number was used instead. Copy commands exactly as listed.'}
        out = block(nb, 'invalid', 3, 'That command is not in AVAILABLE ACTIONS, so nothing would happen. Choose a command copied exactly from the list.')
    if out is None and 'repeat_failed' in on and act == nb.get('last_failed'):
        out = block(nb, 'repeat', 3, 'This exact action just gave "Nothing happens." Repeating it changes nothing; choose a different command from AVAILABLE ACTIONS.')
    return out
`;

export type AlfworldPatch = CodeHookPatch<'alfworld'>;

/**
 * The ALFWorld patch for the kept signatures (`ranked`, most frequent first): on_init skills, then the
 * stage tracker, the hint and the guard when a kept signature uses them. With none kept, the soft patch:
 * general skills only.
 */
export function composeAlfworldPatch(ranked: readonly AlfworldSignatureId[]): { patch: AlfworldPatch; templates: string[] } {
  const on = ALFWORLD_SIGNATURE_IDS.filter((id) => ranked.includes(id));
  if (on.length === 0) {
    return {
      patch: {
        schema_version: PATCH_SCHEMA_VERSION,
        benchmark: 'alfworld',
        description: 'Symbolic engineer (rule-based) soft-hint patch for ALFWorld: no failure pattern recurred, so only general household advice.',
        actions: [{ type: 'add_code_hook', hook: 'on_init', code: ON_INIT.replace('{{SKILLS}}', pyList(SOFT_SKILLS)) }],
      },
      templates: ['on_init: soft skills'],
    };
  }
  const skills = ranked.slice(0, 5).map((id) => ALFWORLD_SKILLS[id]);
  const actions: AlfworldPatch['actions'] = [{ type: 'add_code_hook', hook: 'on_init', code: ON_INIT.replace('{{SKILLS}}', pyList(skills)) }];
  const templates = [`on_init: skills[${ranked.slice(0, 5).join(', ')}]`];
  const hinted = on.filter((id) => HINTED.includes(id));
  const guarded = on.filter((id) => GUARDED.includes(id));
  if (hinted.length > 0 || guarded.some((id) => id !== 'invalid_action')) {
    actions.push({ type: 'add_code_hook', hook: 'on_post_step', code: ON_POST_STEP });
    templates.push('on_post_step: stages[transformed, placed, last_failed]');
  }
  if (hinted.length > 0) {
    actions.push({ type: 'add_code_hook', hook: 'make_pre_hint', code: MAKE_PRE_HINT.replace('{{ON}}', pyList(hinted)) });
    templates.push(`make_pre_hint: hints[${hinted.join(', ')}]`);
  }
  if (guarded.length > 0) {
    actions.push({ type: 'add_code_hook', hook: 'on_before_action', code: ON_BEFORE_ACTION.replace('{{ON}}', pyList(guarded)) });
    templates.push(`on_before_action: guards[${guarded.join(', ')}]`);
  }
  const FIX: Readonly<Record<AlfworldSignatureId, string>> = {
    skip_transform: 'do the heat/cool/clean step before placing',
    wrong_destination: 'place only at the destination type of the goal',
    repeat_failed: 'do not repeat an action that changed nothing',
    transform_loop: 'transform once, then carry the object to the destination',
    forget_second: 'fetch the second object in pick-two tasks',
    invalid_action: 'use commands exactly as listed',
  };
  const description = `Symbolic engineer (rule-based) patch for ALFWorld failure patterns that recur across the batch: ${on.map((id) => FIX[id]).join('; ')}.`;
  return { patch: { schema_version: PATCH_SCHEMA_VERSION, benchmark: 'alfworld', description, actions }, templates };
}

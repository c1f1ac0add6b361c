/**
 * The symbolic engineer's generic part: failure signatures any tool-calling benchmark shows, read from the
 * episodes' messages and steps only, and hook templates that read the generic hook context
 * (`runtime/generic-tool-context.ts`). It answers for benchmarks whose definition brings no signatures of
 * its own.
 *
 * Signatures: `repeated_call` (the same tool with the same arguments three times in one episode),
 * `text_only_turn` (an assistant turn with no tool call), `invalid_call` (a call to an unknown tool or with
 * arguments that did not parse) and `round_limit` (the episode ran out of rounds).
 */
import type { EpisodeRecord } from '../../episode/index.js';
import { PATCH_SCHEMA_VERSION } from '../../patch/index.js';
import type { EngineerInput, EngineerResult } from '../engineer.js';
import { tallyBench } from './bench-tally.js';
import { proposeFromTally } from './propose-bench.js';
import type { SignatureSampler } from './sampling.js';
import { BLOCK_HELPER, pyList, type CodeHookPatch } from './python-kit.js';

export const GENERIC_SIGNATURE_IDS = ['repeated_call', 'invalid_call', 'text_only_turn', 'round_limit'] as const;
export type GenericSignatureId = (typeof GENERIC_SIGNATURE_IDS)[number];

/** How many identical calls in one episode count as a repeat. */
export const REPEATED_CALL_COUNT = 3;

/** The generic signatures one episode shows. */
export function detectGenericSignatures(record: EpisodeRecord): Set<GenericSignatureId> {
  const found = new Set<GenericSignatureId>();
  const counts = new Map<string, number>();
  for (const message of record.messages) {
    if (message.role !== 'assistant') continue;
    const calls = message.toolCalls ?? [];
    if (calls.length === 0 && (record.preamble ?? 0) === 0) found.add('text_only_turn');
    for (const call of calls) {
      const key = `${call.name}\u0000${call.arguments.replace(/\s+/g, ' ').trim()}`;
      const n = (counts.get(key) ?? 0) + 1;
      counts.set(key, n);
      if (n >= REPEATED_CALL_COUNT) found.add('repeated_call');
    }
  }
  if (record.steps.some((s) => s.status === 'invalid')) found.add('invalid_call');
  if (record.outcome === 'round_limit') found.add('round_limit');
  return found;
}

const SKILLS: Readonly<Record<GenericSignatureId, string>> = {
  repeated_call: 'Never send the same tool call twice with the same arguments: its result will not change. Use what it returned, or try a different call.',
  invalid_call: 'Call only the tools you were given, with arguments that are a JSON object holding exactly the parameters the tool describes.',
  text_only_turn: 'Every turn must be a tool call; a reply with only text does nothing.',
  round_limit: 'Rounds are limited: work toward the final answer from the start and submit it before the rounds run out.',
};

const SOFT_SKILL = 'Read the task, use the tools to find what it asks for, and finish with the final tool call.';

const ON_INIT = `def hook(ctx, nb):
    nb['blocks'] = {}
    nb['hinted'] = {}
    return {'skills': {{SKILLS}}}
`;

const MAKE_PRE_HINT = `def hook(ctx, nb):
    on = {{ON}}
    s = ctx.get('state') or {}
    left = int(ctx.get('remaining_steps') or 0)
    tools = ', '.join([str(t) for t in (ctx.get('tools') or [])])
    hinted = nb.get('hinted') or {}
    key = ''
    msg = ''
    if 'invalid_call' in on and s.get('last_invalid'):
        key = 'invalid'
        msg = 'Your last call was not valid. Use one of these tools: ' + tools + '; arguments must be a JSON object with the parameters the tool describes.'
    elif 'text_only_turn' in on and int(s.get('text_only_streak') or 0) >= 1:
        key = 'textonly'
        msg = 'Answer with a tool call (' + tools + '); plain text does not act.'
    elif 'round_limit' in on and 0 < left <= 2:
        key = 'late'
        msg = 'Only ' + str(left) + ' round(s) left: give your final answer with the final tool now.'
    if not key:
        return None
    n = int(hinted.get(key) or 0)
    if n >= 3:
        return None
    hinted[key] = n + 1
    nb['hinted'] = hinted
    return {'message': msg}
`;

const ON_BEFORE_ACTION = `${BLOCK_HELPER}

def hook(ctx, nb):
    on = {{ON}}
    s = ctx.get('state') or {}
    if 'repeated_call' in on and int(s.get('repeated_action_count') or 0) >= 2:
        return block(nb, 'repeat', 3, 'You already sent this exact call twice and its result will not change. Use what it returned, or make a different call.')
    return None
`;

export type GenericPatch = CodeHookPatch<string>;

/** The generic patch for the kept signatures (or the soft skill alone when none recurred). */
export function composeGenericPatch(bench: string, kept: readonly GenericSignatureId[]): { patch: GenericPatch; templates: string[] } {
  const on = pyList(kept);
  const skills = kept.length > 0 ? kept.map((id) => SKILLS[id]) : [SOFT_SKILL];
  const actions: GenericPatch['actions'] = [{ type: 'add_code_hook', hook: 'on_init', code: ON_INIT.replace('{{SKILLS}}', pyList(skills)) }];
  const templates = ['generic/on_init'];
  if (kept.some((id) => id !== 'repeated_call')) {
    actions.push({ type: 'add_code_hook', hook: 'make_pre_hint', code: MAKE_PRE_HINT.replace('{{ON}}', on) });
    templates.push('generic/make_pre_hint');
  }
  if (kept.includes('repeated_call')) {
    actions.push({ type: 'add_code_hook', hook: 'on_before_action', code: ON_BEFORE_ACTION.replace('{{ON}}', on) });
    templates.push('generic/on_before_action');
  }
  const description =
    kept.length > 0 ? `Generic harness for recurring failures: ${kept.join(', ')}.` : 'Generic harness: a working skill only (no failure recurred).';
  return { patch: { schema_version: PATCH_SCHEMA_VERSION, benchmark: bench, description, actions }, templates };
}

/** The symbolic engineer's answer on a benchmark without rules of its own. */
export function proposeGeneric(input: EngineerInput, thresholds: { minEpisodes: number; minShare: number }, sampler?: SignatureSampler): EngineerResult {
  const tally = tallyBench(input.episodes, input.passThreshold, GENERIC_SIGNATURE_IDS, detectGenericSignatures, thresholds);
  const result = proposeFromTally(tally, thresholds, (kept) => composeGenericPatch(input.benchmark.name, kept), sampler);
  if (result.status === 'ok') result.notes = ['generic signatures and templates (the benchmark has none of its own)', ...(result.notes ?? [])];
  return result;
}

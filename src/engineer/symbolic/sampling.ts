/**
 * Seeded stochastic sampling for the symbolic engineer, so that a GRPO group of K answers on one batch is
 * not K copies of one patch. With temperature 0 nothing here runs and the engineer stays deterministic.
 * Three choices are drawn, each from a generator seeded by the sample's seed alone:
 * - which signatures to address: among those seen in failed episodes, weights (share of failed episodes)^(1/T),
 *   the top-p nucleus of them, then k ~ uniform(1..nucleus) drawn without replacement by weight;
 * - which template variant: the full patch, or (when the patch has both kinds) hints only (no pre-action
 *   guard) or guards only (no hint hooks), the full patch with probability 1 − min(T, 1)/2;
 * - parameters: every `block(nb, key, cap, …)` cap moved by −1, 0 or +1 (kept within 1..5).
 */
import type { EngineerResult } from '../engineer.js';

export interface SymbolicSampling {
  temperature: number;
  topP: number;
  seed: number;
}

/** A seeded generator in [0, 1) (mulberry32 over a 32-bit hash of the seed). */
export function seededRandom(seed: number): () => number {
  let state = (Math.imul(Math.trunc(seed) ^ 0x9e3779b9, 0x85ebca6b) >>> 0) || 1;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Chooses the signatures one sample addresses; returned in the tally's order (most frequent first). */
export interface SignatureSampler {
  readonly sampling: SymbolicSampling;
  choose<Id extends string>(signatures: readonly { id: Id; failed: number }[], failedEpisodes: number): Id[];
}

export function createSignatureSampler(sampling: SymbolicSampling): SignatureSampler {
  const random = seededRandom(sampling.seed * 2 + 1);
  return {
    sampling,
    choose(signatures, failedEpisodes) {
      const seen = signatures.filter((s) => s.failed > 0);
      if (seen.length === 0) return [];
      const t = Math.max(sampling.temperature, 1e-3);
      const weights = seen.map((s) => Math.pow(s.failed / Math.max(1, failedEpisodes), 1 / t));
      const total = weights.reduce((a, b) => a + b, 0);
      const order = seen.map((s, i) => ({ s, w: weights[i]! / total })).sort((a, b) => b.w - a.w);
      const nucleus: typeof order = [];
      let mass = 0;
      for (const entry of order) {
        nucleus.push(entry);
        mass += entry.w;
        if (mass >= sampling.topP) break;
      }
      const k = 1 + Math.floor(random() * nucleus.length);
      const pool = nucleus.slice();
      const chosen = new Set<string>();
      while (chosen.size < k) {
        const sum = pool.reduce((a, e) => a + e.w, 0);
        let x = random() * sum;
        const at = pool.findIndex((e) => (x -= e.w) <= 0);
        const [picked] = pool.splice(at < 0 ? pool.length - 1 : at, 1);
        chosen.add(picked!.s.id);
      }
      return seen.filter((s) => chosen.has(s.id)).map((s) => s.id);
    },
  };
}

type Action = { type?: unknown; hook?: unknown; code?: unknown };
const HINT_HOOKS = ['make_pre_hint', 'on_post_step'];

/** The variant and parameter draws, applied to a composed patch; notes say what was drawn. */
export function varyPatch(result: EngineerResult, sampling: SymbolicSampling): EngineerResult {
  if (result.status !== 'ok' || result.proposal.kind !== 'patch' || result.proposal.patch === null || typeof result.proposal.patch !== 'object') return result;
  const random = seededRandom(sampling.seed * 2 + 2);
  const patch = result.proposal.patch as { actions?: Action[] };
  let actions = [...(patch.actions ?? [])];
  const hasGuard = actions.some((a) => a.hook === 'on_before_action');
  const hasHint = actions.some((a) => HINT_HOOKS.includes(String(a.hook)));
  const variants = ['full', ...(hasGuard && hasHint ? ['hints_only', 'guards_only'] : [])];
  const pFull = 1 - Math.min(sampling.temperature, 1) / 2;
  const draw = random();
  const variant = variants.length === 1 || draw < pFull ? 'full' : variants[1 + Math.min(variants.length - 2, Math.floor(((draw - pFull) / (1 - pFull)) * (variants.length - 1)))]!;
  if (variant === 'hints_only') actions = actions.filter((a) => a.hook !== 'on_before_action');
  if (variant === 'guards_only') actions = actions.filter((a) => !HINT_HOOKS.includes(String(a.hook)));
  const caps: string[] = [];
  actions = actions.map((a) => {
    if (typeof a.code !== 'string') return a;
    const code = a.code.replace(/block\(nb, '([a-z_]+)', (\d+),/g, (_m, key: string, cap: string) => {
      const next = Math.min(5, Math.max(1, Number(cap) + Math.floor(random() * 3) - 1));
      caps.push(`${key}=${next}`);
      return `block(nb, '${key}', ${next},`;
    });
    return { ...a, code };
  });
  const notes = [...(result.notes ?? []), `sampling: seed ${sampling.seed}, temperature ${sampling.temperature}, top-p ${sampling.topP}; variant ${variant}${caps.length > 0 ? `; block caps ${caps.join(', ')}` : ''}`];
  return { ...result, proposal: { kind: 'patch', patch: { ...patch, actions } }, notes };
}

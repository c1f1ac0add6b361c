import { HOOK_NAMES, type HookName } from '../../episode/index.js';

/** The paper's names of the lifecycle positions (Table 13.1). */
export const POSITION_LABELS: Record<HookName, string> = {
  on_init: 'init',
  make_pre_hint: 'pre-decision',
  on_before_action: 'pre-action',
  on_post_step: 'post-feedback',
};

/** One arm of the ablation: the full patch, no intervention, or the patch with one position disabled. */
export interface AblationArm {
  /** `full`, `none`, or `no_<position>`. */
  id: string;
  label: string;
  /** `false` for the no-intervention arm (the baseline, no hooks at all). */
  patched: boolean;
  disabled: HookName[];
}

/** Full patch, no intervention, then one arm per lifecycle position in call order. */
export function ablationArms(): AblationArm[] {
  return [
    { id: 'full', label: 'Full patch', patched: true, disabled: [] },
    { id: 'none', label: 'No intervention', patched: false, disabled: [] },
    ...HOOK_NAMES.map((h): AblationArm => ({ id: `no_${h}`, label: `w/o ${POSITION_LABELS[h]} (${h})`, patched: true, disabled: [h] })),
  ];
}

/**
 * The target SPEC of one repeat: a simulated target's seed is varied (`seed` = the given seed, 0 when none,
 * plus the repeat's index); any other target is rerun as it is (its own sampling is the variation).
 */
export function targetSpecForRepeat(spec: string, repeat: number): string {
  if (!spec.startsWith('sim:')) return spec;
  const [head, query = ''] = spec.split('?', 2) as [string, string?];
  const params = new URLSearchParams(query);
  const base = Number(params.get('seed') ?? '0');
  params.set('seed', String(base + repeat));
  return `${head}?${params.toString()}`;
}

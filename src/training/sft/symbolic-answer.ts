/**
 * The symbolic engineer writes a patch object, not text. As an SFT teacher its answer is rendered as a
 * response in the row's protocol: a think block built from its own notes (the recurring failure
 * signatures it found, the templates it used, the patch description) and the patch as JSON. The rows say
 * the teacher was the symbolic engineer; the think text is a rendering, not a model's reasoning.
 */
import type { EngineerPromptProtocol } from '../../engineer/engineer-prompt.js';
import { PREFILL_THINK } from '../../engineer/engineer-prompt.js';

const KEPT = /^signature (\S+): (\d+) of (\d+) failed episodes .*-> kept$/;

/** Four short bullets (failure pattern, hooks, what the patch does, the regression risk avoided), no JSON. */
export function symbolicThink(notes: readonly string[], patch: unknown): string {
  const kept = notes.map((n) => KEPT.exec(n)).filter((m): m is RegExpExecArray => m !== null).map((m) => `${m[1]} (${m[2]} of ${m[3]} failed episodes)`);
  const sampled = notes.find((n) => n.startsWith('sampled signatures: '))?.slice('sampled signatures: '.length);
  const templates = notes.filter((n) => n.startsWith('template ')).map((n) => n.slice('template '.length));
  const actions = (patch as { actions?: { hook?: unknown }[] } | null)?.actions ?? [];
  const hooks = [...new Set(actions.map((a) => a.hook).filter((h): h is string => typeof h === 'string'))];
  const description = (patch as { description?: unknown } | null)?.description;
  return [
    `- Failure pattern: ${sampled !== undefined ? `addressing ${sampled}` : kept.length > 0 ? `recurring ${kept.join('; ')}` : 'no signature recurs across the batch'}.`,
    `- Hooks: ${hooks.length > 0 ? hooks.join(', ') : 'none'}${templates.length > 0 ? ` (${templates.length} template part(s))` : ''}.`,
    `- Patch: ${typeof description === 'string' && description !== '' ? trimDots(description.replace(/[{}]/g, '')) : 'a general runtime patch'}.`,
    '- Regression risk: each hook acts only when its failure signature shows, so episodes that already pass keep their behaviour.',
  ].join('\n');
}

function trimDots(text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === '.') end--;
  return text.slice(0, end);
}

/** The symbolic answer as the text an LLM engineer would have sent in `protocol`. */
export function symbolicAnswerText(notes: readonly string[], patch: unknown, protocol: EngineerPromptProtocol): string {
  const body = `${symbolicThink(notes, patch)}\n</think>\n<patch>\n${JSON.stringify(patch, null, 2)}\n</patch>`;
  return protocol === 'prefill_think_patch' ? body : `${PREFILL_THINK}${body}`;
}

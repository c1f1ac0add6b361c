/**
 * Rebuilding the engineer's text when the server splits `reasoning_content` from `content` (§2.3,
 * `message_text` in the original evaluators). The original's SQL-benchmark evaluator has no prefill branch, so with a
 * reasoning parser on, its prefill responses come back starting with `<think>` and the prefill extractor
 * rejects them; `variant: 'dbbench'` (the variant names are the original's evaluators) reproduces that.
 */
import type { ResponseProtocol } from './extract-patch-json.js';
import { pyLStrip, pyStrip } from '../python/python-text.js';

export interface EngineerMessage {
  content?: string | null;
  reasoning_content?: string | null;
  reasoning?: string | null;
}

export interface ReassembleOptions {
  protocol: ResponseProtocol;
  /** `webshop_alfworld`: `RX/eval_webshop_checkpoint_patches.py` and `RX/eval_alfworld_patches.py`. */
  variant?: 'webshop_alfworld' | 'dbbench';
}

/** The single response text the extractors read. */
export function reassembleEngineerText(message: EngineerMessage, options: ReassembleOptions): string {
  const content = message.content || '';
  const reasoning = message.reasoning_content || message.reasoning || '';
  const variant = options.variant ?? 'webshop_alfworld';
  const prefill = options.protocol === 'prefill_think_patch' || options.protocol === 'prefill_think_patch_relaxed';
  if (variant === 'webshop_alfworld' && prefill && pyStrip(reasoning) !== '') {
    return `${pyStrip(reasoning)}\n</think>\n${pyLStrip(content)}`;
  }
  if (pyStrip(content) !== '' && pyStrip(reasoning) !== '' && !content.toLowerCase().includes('<think')) {
    return `<think>\n${pyStrip(reasoning)}\n</think>\n${content}`;
  }
  if (pyStrip(content) !== '') return content;
  return reasoning;
}

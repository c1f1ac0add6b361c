import type { ResponseProtocol } from '../patch/index.js';
import type { EngineerResult } from './engineer.js';

/**
 * An engineer answer given as text (a completion sampled elsewhere, e.g. by an RL trainer) as the LLM
 * engineer would have returned it: an empty answer is a failed request (scored as no patch), anything
 * else a response to extract the patch from with `protocol`.
 */
export function responseTextResult(text: string, protocol: ResponseProtocol): EngineerResult {
  if (text.trim() === '') return { status: 'request_failed', detail: 'engineer returned an empty response' };
  return { status: 'ok', proposal: { kind: 'response', text, protocol } };
}

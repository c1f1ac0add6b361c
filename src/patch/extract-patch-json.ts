/**
 * Finding the patch JSON in an engineer response (§2.3): the lenient `json_patch` extractor
 * (`extract_json_object`), the strict `full_think_patch` and `prefill_think_patch` protocols, and the
 * eval-only relaxed variants. Regexes follow Python `re` (Unicode `\s`, `\b`; IGNORECASE extras).
 */
import type { PatchRejection } from './patch-types.js';
import { createObjectDecoder, isPyDict, type PyDict, type PyJsonError } from '../python/python-json.js';
import { PY_SPACE, PY_WORD, pyIgnoreCase } from '../python/python-regex.js';
import { pyLStrip, pyStrip } from '../python/python-text.js';
import { reject, type Step } from './rejection.js';
import { closedTagBlocks, fencedJsonBlocks, hasClosedTagBlock, tagPair } from './tag-blocks.js';

export const RESPONSE_PROTOCOLS = [
  'full_think_patch',
  'prefill_think_patch',
  'json_patch',
  'full_think_patch_relaxed',
  'prefill_think_patch_relaxed',
] as const;
export type ResponseProtocol = (typeof RESPONSE_PROTOCOLS)[number];

export function isResponseProtocol(value: string): value is ResponseProtocol {
  return (RESPONSE_PROTOCOLS as readonly string[]).includes(value);
}

/** Relax/SGLang may pass the whole rendered chat; only the text after the last tag is the answer. */
export const ASSISTANT_TAG = '<|im_start|>assistant';

// The closed-block and fenced-block patterns are index scans (tag-blocks.ts): as regexes they are quadratic.
const PATCH_TAGS = tagPair('patch');
const THINK_TAGS = tagPair('think');
const PATCH = pyIgnoreCase('patch');
const THINK = pyIgnoreCase('think');
// Linear: one start (the first opening tag), then a greedy run to the end.
const OPEN_PATCH_BLOCK = new RegExp(`<${PATCH}>${PY_SPACE}*([\\s\\S]*)`, 'u');
const STARTS_WITH_THINK = new RegExp(`^<${THINK}(?!${PY_WORD})`, 'u');

const EXTRACT = { stage: 'extract' } as const;

function afterLastAssistantTag(text: string): string {
  const at = text.lastIndexOf(ASSISTANT_TAG);
  return at < 0 ? text : text.slice(at + ASSISTANT_TAG.length);
}

function jsonFailure(error: PyJsonError): { ok: false; rejection: PatchRejection } {
  if (error.kind === 'int_digits') {
    return reject('json_int_too_long', 'response', error.message, { ...EXTRACT, exception: 'ValueError' });
  }
  if (error.kind === 'recursion') {
    return reject('json_too_deep', 'response', error.message, { ...EXTRACT, exception: 'RecursionError' });
  }
  return reject('json_syntax', 'response', error.message, { ...EXTRACT, exception: 'JSONDecodeError' });
}

/**
 * Every dict that `raw_decode` finds starting at a `{` of `segment`, in order. Decode errors are skipped;
 * `ValueError` (huge int) and `RecursionError` escape the original's loop, so they fail the whole scan.
 */
function candidates(segment: string): Step<PyDict[]> {
  const found: PyDict[] = [];
  const decodeAt = createObjectDecoder(segment);
  for (let at = segment.indexOf('{'); at >= 0; at = segment.indexOf('{', at + 1)) {
    const decoded = decodeAt(at);
    if (decoded.ok) {
      if (isPyDict(decoded.value)) found.push(decoded.value);
    } else if (decoded.kind !== 'decode') {
      return jsonFailure(decoded.error());
    }
  }
  return { ok: true, value: found };
}

/** The last patch-like dict (`actions` a list, `benchmark` a string), else the last dict of any kind. */
function choose(objects: PyDict[]): PyDict | undefined {
  const patchLike = objects.filter((o) => Array.isArray(o.get('actions')) && typeof o.get('benchmark') === 'string');
  return patchLike.at(-1) ?? objects.at(-1);
}

function patchBlocks(segment: string): string[] {
  const blocks = closedTagBlocks(segment, PATCH_TAGS);
  if (blocks.length === 0) {
    const open = OPEN_PATCH_BLOCK.exec(segment);
    if (open) blocks.push(open[1] ?? '');
  }
  return blocks;
}

/**
 * `json_patch` (`extract_json_object`): search closed `<patch>` blocks (or an unclosed one), then the
 * assistant segment, then fenced code blocks, then the full text; the first segment with any dict wins.
 */
export function extractJsonObject(response: string): Step<PyDict> {
  const text = pyStrip(response);
  const searchSegment = afterLastAssistantTag(text);
  const segments = [
    ...patchBlocks(searchSegment),
    searchSegment,
    ...fencedJsonBlocks(searchSegment),
  ];
  if (searchSegment !== text) segments.push(text);
  for (const segment of segments) {
    const found = candidates(segment);
    if (!found.ok) return found;
    const chosen = choose(found.value);
    if (chosen) return { ok: true, value: chosen };
  }
  return reject('no_json_object', 'response', 'no JSON object found in model output', EXTRACT);
}

/** `full_think_patch`: a complete think block and at least one complete patch block; the last is parsed. */
export function extractThinkPatchJsonObject(response: string): Step<PyDict> {
  const text = afterLastAssistantTag(pyStrip(response));
  if (!hasClosedTagBlock(text, THINK_TAGS)) {
    return reject('missing_think_block', 'response', 'missing complete <think>...</think> block', EXTRACT);
  }
  const last = closedTagBlocks(text, PATCH_TAGS).at(-1);
  if (last === undefined) return reject('missing_patch_block', 'response', 'missing complete <patch>...</patch> block', EXTRACT);
  const patchText = pyStrip(last);
  if (patchText === '') return reject('empty_patch_block', 'response', '<patch> block is empty', EXTRACT);
  return extractJsonObject(`<patch>\n${patchText}\n</patch>`);
}

/**
 * `prefill_think_patch`: the prompt already opened `<think>`, so the completion must not open another;
 * `<think>\n` is prepended and the full rule applied (so `</think>` and a closed patch block are needed).
 */
export function extractPrefilledThinkPatchJsonObject(response: string): Step<PyDict> {
  let text = pyStrip(response);
  if (text.includes(ASSISTANT_TAG)) text = pyLStrip(afterLastAssistantTag(text));
  if (STARTS_WITH_THINK.test(text)) {
    return reject(
      'prefill_starts_with_think',
      'response',
      'prefilled-think response must not start with another <think> tag',
      EXTRACT,
    );
  }
  return extractThinkPatchJsonObject(`<think>\n${text}`);
}

/**
 * `full_think_patch_relaxed` (the original's trace-benchmark evaluators): the strict rule first; if it rejects, the
 * last closed patch block of the raw response, else the lenient extractor on the whole response.
 */
function extractRelaxedThinkPatch(response: string): Step<PyDict> {
  const strict = extractThinkPatchJsonObject(response);
  if (strict.ok || strict.rejection.exception !== 'PatchValidationError') return strict;
  const last = closedTagBlocks(response, PATCH_TAGS).at(-1);
  if (last !== undefined) return extractJsonObject(`<patch>\n${pyStrip(last)}\n</patch>`);
  return extractJsonObject(response);
}

/** Extracts the raw patch dict with the given response protocol (rewards' `_parse_patch`). */
export function extractPatchJson(response: string, protocol: ResponseProtocol): Step<PyDict> {
  switch (protocol) {
    case 'full_think_patch':
      return extractThinkPatchJsonObject(response);
    case 'prefill_think_patch':
      return extractPrefilledThinkPatchJsonObject(response);
    case 'full_think_patch_relaxed':
      return extractRelaxedThinkPatch(response);
    case 'json_patch':
    case 'prefill_think_patch_relaxed':
      return extractJsonObject(response);
  }
}

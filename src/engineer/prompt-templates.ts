/**
 * The engineer prompt texts live as versioned template files in `./prompts/`, because SFT, RL and
 * evaluation must send byte-identical prompts (protocol.md §10 item 21: drift kills format validity).
 *
 * Each file's SHA-256 is pinned below under {@link PROMPT_VERSION}. Loading a template whose bytes differ
 * from its pin throws: whoever edits a prompt must add a new `.vN.md` file (or re-pin), bump
 * PROMPT_VERSION and say so, so that data made with two different prompts can never share a version.
 *
 * Placeholders are `{{name}}`. Filling is a single pass (inserted text is never scanned again, so evidence
 * containing braces is safe), and it fails on a placeholder without a value and on a value without a
 * placeholder.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { InternalError } from '../episode/index.js';

/**
 * The version of every engineer prompt text below; recorded with each prompt sent. The WebShop and
 * ALFWorld templates were added under v1 without changing a byte of the DBBench ones, so every prompt
 * that v1 could already produce is unchanged; any edit of a pinned file still needs a new version. The
 * WebShop/ALFWorld revision template (`trace-revision.v1.md`) was added the same way: it only appears in
 * second-pass prompts of those benchmarks, which v1 could not produce before.
 */
export const PROMPT_VERSION = 'harness-r1-engineer-prompt-v1';

/** File name → SHA-256 of its bytes, for {@link PROMPT_VERSION}. */
export const PROMPT_TEMPLATE_SHA256 = {
  'dbbench-system-prefill.v1.md': '2d8a3dfd6fbd0ab763519315aec88fee9576bbb2df98b7ec78a430adc5000c3b',
  'dbbench-system-full.v1.md': '1ea30f05e5d6e25dc7918e8271efa6e53e449885dff9c43e1ac2356e5f3ca09a',
  'dbbench-user-prefill.v1.md': '76d37907e11a59c2c86d7832e3961115fb115cc136ea19f938161cb09e365fd5',
  'dbbench-user-full.v1.md': '8f63d4698cb83ebeef6cb6fdf600bbf183b11ca1d089e787f6a2c7a20829b384',
  'dbbench-schema.v1.md': '0a6cbdc27a120ba7fae114453c5499a8b41b6e9c9d31944e55a2dd5cacc105ee',
  'dbbench-runtime-context.v1.md': '4f2dc921ca091188a56223c655dd44a2e978b343d22647b5a25d30664fc960b3',
  'dbbench-revision.v1.md': 'b00a0a56d4b95488ca72c1c42061d9eebec3393ac1e43f21e4a55e74bf890c35',
  'output-contract-prefill.v1.md': '7baf4cf91aa8b8bfece6e6a2775357c2ea4aa34b2c664c5a9129d3fc450117b9',
  'output-contract-full.v1.md': 'c29936582b8b372a55caddf0aeaa4904b6d39f4f6e76f3f1dfb51b99eb4b4b91',
  'code-rules.v1.md': 'e0cadf5a92dba761ada29c0febeb1fdb67eeb395e60bdee7c78ec6e494b3f43b',
  'webshop-system-full.v1.md': '2af8ebc59861c13ff0cbddf71c0ac25b928ea012e87d48e0ecb2ea7364450c9b',
  'webshop-system-prefill.v1.md': 'd85a055302fb2405ab78367ecfa63a905e2faca42ea4d8616535dd9b9b5a7e79',
  'webshop-scope.v1.md': 'fdc4b076383049e1c7348fc6b8834878d0d8a879ab4ecb3491bf2038bced19c3',
  'webshop-user-full.v1.md': 'd22af29fdd8cfcf2895dc83fa72bd14bf72baee0a08089b9656ca47a22266018',
  'webshop-user-prefill.v1.md': 'f3c7d23792bddf494e118fd78da6a4ca15081dcb2928dca5c8797f7560d0d0ca',
  'webshop-schema.v1.md': '81b3f91f8d07147d898eb1a42d11c615bd3219f03dd97a06ae9edd416a29e670',
  'alfworld-system.v1.md': 'a0bf5ca305e837fa05d1c549843e9f739e1f36fcc2e2816730095c46b02911de',
  'alfworld-user.v1.md': '46e8019d5949334a37b2e89c0aab8dc6f6441940e90d8d8098910d7e516db866',
  'alfworld-schema.v1.md': '62dc296b1844cbe30e17fb1c9ba8b1b7756c9cb52fb8c748557440eccd373ef1',
  'trace-revision.v1.md': '75a384edf424a4aa7f341a2a866c42f71acc68bdd4840f18282c9fecb11071ca',
} as const satisfies Record<string, string>;

export type PromptTemplateName = keyof typeof PROMPT_TEMPLATE_SHA256;

/** Where the template files are: beside this module (they are read from the source tree, as the sandbox's Python files are). */
export const PROMPT_TEMPLATE_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'prompts');

const PLACEHOLDER = /\{\{([a-z][a-z0-9_]*)\}\}/g;
const cache = new Map<PromptTemplateName, string>();

export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * The template text: the file's bytes (UTF-8) without its final newline. Throws InternalError when the
 * file is missing or its digest differs from the pin.
 */
export function loadPromptTemplate(name: PromptTemplateName): string {
  const cached = cache.get(name);
  if (cached !== undefined) return cached;
  const file = path.join(PROMPT_TEMPLATE_DIR, name);
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (cause) {
    throw new InternalError({ message: `Engineer prompt template ${name} cannot be read from ${PROMPT_TEMPLATE_DIR}.`, cause });
  }
  const text = checkTemplateBytes(name, bytes);
  cache.set(name, text);
  return text;
}

/** Checks a template's bytes against its pin and returns its text without the final newline. */
export function checkTemplateBytes(name: PromptTemplateName, bytes: Uint8Array): string {
  const digest = createHash('sha256').update(bytes).digest('hex');
  const pinned = PROMPT_TEMPLATE_SHA256[name];
  if (digest !== pinned) {
    throw new InternalError({
      message:
        `Engineer prompt template ${name} changed (sha256 ${digest}, pinned ${pinned} for ${PROMPT_VERSION}). ` +
        'Prompts must stay byte-identical within a version: add a new template version, pin its digest and bump PROMPT_VERSION.',
    });
  }
  return Buffer.from(bytes).toString('utf8').replace(/\n$/, '');
}

/** The `{{name}}` placeholders of a template, in order of first appearance. */
export function templatePlaceholders(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1] ?? ''))];
}

/** Fills every placeholder of `template` from `values`; `label` names the template in errors. */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>, label = 'template'): string {
  const wanted = templatePlaceholders(template);
  const missing = wanted.filter((key) => !Object.hasOwn(values, key));
  if (missing.length > 0) {
    throw new InternalError({ message: `Engineer prompt ${label} has placeholders without a value: ${missing.map((k) => `{{${k}}}`).join(', ')}.` });
  }
  const unused = Object.keys(values).filter((key) => !wanted.includes(key));
  if (unused.length > 0) {
    throw new InternalError({ message: `Engineer prompt ${label} has no placeholder for: ${unused.join(', ')} (it knows ${wanted.join(', ') || 'none'}).` });
  }
  return template.replace(PLACEHOLDER, (_match, key: string) => values[key] ?? '');
}

export function renderPromptTemplate(name: PromptTemplateName, values: Readonly<Record<string, string>> = {}): string {
  return fillTemplate(loadPromptTemplate(name), values, name);
}

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
 * The version of every engineer prompt text below; recorded with each prompt sent. The trace benchmarks'
 * templates were added under v1 without changing a byte of the SQL benchmark's, so every prompt that v1
 * could already produce is unchanged; any edit of a pinned file still needs a new version. The trace
 * revision template (`trace-revision.v1.md`) was added the same way: it only appears in second-pass
 * prompts of those benchmarks, which v1 could not produce before.
 */
export const PROMPT_VERSION = 'harness-r1-engineer-prompt-v1';

/** Where the engine's own template files are: beside this module. */
export const PROMPT_TEMPLATE_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'prompts');

const PLACEHOLDER = /\{\{([a-z][a-z0-9_]*)\}\}/g;

export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * A folder of pinned template files: name → SHA-256 of the file's bytes. The engine's own texts (output
 * contracts, code rules, the trace revision section) are one set; each benchmark pins its own texts beside
 * its definition. Every set's texts belong to {@link PROMPT_VERSION}.
 */
export interface PromptTemplateSet<N extends string = string> {
  readonly dir: string;
  readonly pins: Readonly<Record<N, string>>;
  /** The template text: the file's bytes (UTF-8) without its final newline; throws when it differs from its pin. */
  load(name: N): string;
  /** Checks a template's bytes against its pin and returns its text without the final newline. */
  check(name: N, bytes: Uint8Array): string;
  /** The template filled with `values` (see {@link fillTemplate}). */
  render(name: N, values?: Readonly<Record<string, string>>): string;
}

/** A set of pinned templates in `dir` (template files are read from the source tree, like the sandbox's Python files). */
export function definePromptTemplates<N extends string>(dir: string, pins: Readonly<Record<N, string>>): PromptTemplateSet<N> {
  const cache = new Map<N, string>();
  const check = (name: N, bytes: Uint8Array): string => {
    const digest = createHash('sha256').update(bytes).digest('hex');
    const pinned = pins[name];
    if (digest !== pinned) {
      throw new InternalError({
        message:
          `Engineer prompt template ${name} changed (sha256 ${digest}, pinned ${pinned} for ${PROMPT_VERSION}). ` +
          'Prompts must stay byte-identical within a version: add a new template version, pin its digest and bump PROMPT_VERSION.',
      });
    }
    return Buffer.from(bytes).toString('utf8').replace(/\n$/, '');
  };
  const load = (name: N): string => {
    const cached = cache.get(name);
    if (cached !== undefined) return cached;
    let bytes: Buffer;
    try {
      bytes = readFileSync(path.join(dir, name));
    } catch (cause) {
      throw new InternalError({ message: `Engineer prompt template ${name} cannot be read from ${dir}.`, cause });
    }
    const text = check(name, bytes);
    cache.set(name, text);
    return text;
  };
  return { dir, pins, load, check, render: (name, values = {}) => fillTemplate(load(name), values, name) };
}

/** The folder beside a module: where a benchmark keeps its `prompts/`. */
export function promptsDirOf(moduleUrl: string): string {
  return path.join(path.dirname(fileURLToPath(moduleUrl)), 'prompts');
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

/** The engine's own texts, shared by the benchmarks' prompts. */
export const ENGINE_TEMPLATES = definePromptTemplates(PROMPT_TEMPLATE_DIR, {
  'output-contract-prefill.v1.md': '7baf4cf91aa8b8bfece6e6a2775357c2ea4aa34b2c664c5a9129d3fc450117b9',
  'output-contract-full.v1.md': 'c29936582b8b372a55caddf0aeaa4904b6d39f4f6e76f3f1dfb51b99eb4b4b91',
  'code-rules.v1.md': 'e0cadf5a92dba761ada29c0febeb1fdb67eeb395e60bdee7c78ec6e494b3f43b',
  'trace-revision.v1.md': '75a384edf424a4aa7f341a2a866c42f71acc68bdd4840f18282c9fecb11071ca',
});

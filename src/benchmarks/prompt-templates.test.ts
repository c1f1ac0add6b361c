import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { PROJECT_ROOT } from '../config/data-dir.js';
import { ENGINE_TEMPLATES, PROMPT_VERSION, fillTemplate, templatePlaceholders, type PromptTemplateSet } from '../engineer/prompt-templates.js';
import { ALFWORLD_TEMPLATES } from './alfworld/engineer/prompt-templates.js';
import { DBBENCH_TEMPLATES } from './dbbench/engineer/prompt-templates.js';
import { WEBSHOP_TEMPLATES } from './webshop/engineer/prompt-templates.js';

const SETS: PromptTemplateSet[] = [ENGINE_TEMPLATES, DBBENCH_TEMPLATES, WEBSHOP_TEMPLATES, ALFWORLD_TEMPLATES];
const ALL = SETS.flatMap((set) => Object.keys(set.pins).map((name) => ({ set, name })));

describe('engineer prompt templates', () => {
  it('pins every template file of each prompts folder, and each one loads under its pin', () => {
    for (const set of SETS) {
      const files = readdirSync(set.dir).filter((f) => f.endsWith('.md')).sort();
      expect(files).toEqual(Object.keys(set.pins).sort());
    }
    expect(ALL).toHaveLength(20);
    expect(PROMPT_VERSION).toBe('harness-r1-engineer-prompt-v1');
    for (const { set, name } of ALL) {
      const text = set.load(name);
      expect(text.length, name).toBeGreaterThan(0);
      expect(text.endsWith('\n'), name).toBe(false);
    }
  });

  it('refuses a template whose bytes differ from the pin by a single character', () => {
    const name = 'dbbench-schema.v1.md';
    const bytes = readFileSync(path.join(DBBENCH_TEMPLATES.dir, name));
    expect(DBBENCH_TEMPLATES.check(name, bytes)).toBe(DBBENCH_TEMPLATES.load(name));
    const edited = Buffer.from(bytes.toString('utf8').replace('at most 8000', 'at most 8001'));
    expect(() => DBBENCH_TEMPLATES.check(name, edited)).toThrow(/changed .*bump PROMPT_VERSION/);
    const crlf = Buffer.from(bytes.toString('utf8').replace(/\n/g, '\r\n'));
    expect(() => DBBENCH_TEMPLATES.check(name, crlf)).toThrow(/changed/);
  });

  it('fills placeholders in one pass and fails on unknown or unused ones', () => {
    expect(fillTemplate('a {{x}} b {{y}} {{x}}', { x: '1', y: '{{x}}' })).toBe('a 1 b {{x}} 1');
    expect(() => fillTemplate('a {{x}} {{z}}', { x: '1' }, 't.md')).toThrow('Engineer prompt t.md has placeholders without a value: {{z}}.');
    expect(() => fillTemplate('a {{x}}', { x: '1', extra: '2' }, 't.md')).toThrow(/has no placeholder for: extra/);
    expect(templatePlaceholders(DBBENCH_TEMPLATES.load('dbbench-user-prefill.v1.md'))).toEqual(['schema', 'runtime_context', 'evidence_marker', 'evidence']);
    expect(templatePlaceholders(DBBENCH_TEMPLATES.load('dbbench-schema.v1.md'))).toEqual(['output_contract']);
  });

  it('is written in the project\'s own words: no run of 10 words is copied from protocol.md', () => {
    const file = path.join(PROJECT_ROOT, '..', 'shared', 'docs', 'protocol.md');
    let source: string;
    try {
      source = readFileSync(file, 'utf8');
    } catch {
      return; // The shared docs are not beside this checkout; nothing to compare against.
    }
    const words = (text: string) => text.toLowerCase().match(/[a-z0-9_]+/g) ?? [];
    const grams = (list: string[]) => new Set(list.slice(0, Math.max(0, list.length - 9)).map((_, i) => list.slice(i, i + 10).join(' ')));
    const reference = grams(words(source));
    for (const { set, name } of ALL) {
      const copied = [...grams(words(set.load(name)))].filter((g) => reference.has(g));
      expect(copied, name).toEqual([]);
    }
  });
});

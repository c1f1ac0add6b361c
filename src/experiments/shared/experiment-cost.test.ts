import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { specListOption, strategyListOption } from '../../app/experiment-options.js';
import { formatExperimentCost, measureExperimentCost } from './experiment-cost.js';

const root = mkdtempSync(path.join(tmpdir(), 'harness-cost-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('measureExperimentCost', () => {
  it('sums every episode line (superseded attempts included) and every engineer answer under the run directory', () => {
    const line = (calls: number, p: number, c: number) => JSON.stringify({ usage: { modelCalls: calls, promptTokens: p, completionTokens: c } });
    mkdirSync(path.join(root, 'baseline'), { recursive: true });
    mkdirSync(path.join(root, 'cells', 'x', 't1', 'reruns', 'k'), { recursive: true });
    mkdirSync(path.join(root, 'batches', 'batch_000'), { recursive: true });
    mkdirSync(path.join(root, 'batches', 'batch_001'), { recursive: true });
    writeFileSync(path.join(root, 'baseline', 'episodes.jsonl'), `${line(3, 100, 10)}\n${line(0, 0, 0)}\n${line(2, 50, 5)}\n`);
    writeFileSync(path.join(root, 'cells', 'x', 't1', 'reruns', 'k', 'episodes.jsonl'), `${line(4, 7, 1)}\n{"torn`);
    writeFileSync(path.join(root, 'batches', 'batch_000', 'engineer.json'), JSON.stringify({ status: 'ok', usage: { modelCalls: 2, promptTokens: 900, completionTokens: 60 } }));
    writeFileSync(path.join(root, 'batches', 'batch_001', 'engineer.json'), JSON.stringify({ status: 'ok', proposal: { kind: 'patch', patch: null } }));
    const cost = measureExperimentCost(root);
    expect(cost).toEqual({
      target: { modelCalls: 9, promptTokens: 157, completionTokens: 16, items: 4 },
      engineer: { modelCalls: 2, promptTokens: 900, completionTokens: 60, items: 2 },
    });
    expect(formatExperimentCost(cost)).toBe('cost: target 9 model call(s), 157 prompt + 16 completion tokens (4 episodes); engineer 2 model call(s), 900 prompt + 60 completion tokens (2 answers)');
  });
});

describe('measureExperimentCost of Reflection', () => {
  it('adds the reflection call and the second episode to the target, still one episode item per record', () => {
    const dir = path.join(root, 'reflection');
    mkdirSync(dir, { recursive: true });
    const record = { usage: { modelCalls: 5, promptTokens: 500, completionTokens: 50 }, detail: { reflection: { text: 'r', usage: { modelCalls: 1, promptTokens: 80, completionTokens: 20 }, retry: { usage: { modelCalls: 3, promptTokens: 300, completionTokens: 30 } } } } };
    const failedReflection = { usage: { modelCalls: 2, promptTokens: 10, completionTokens: 1 }, detail: { reflection: { error: 'empty', usage: { modelCalls: 1, promptTokens: 9, completionTokens: 0 } } } };
    writeFileSync(path.join(dir, 'episodes.jsonl'), `${JSON.stringify(record)}\n${JSON.stringify(failedReflection)}\n`);
    expect(measureExperimentCost(dir).target).toEqual({ modelCalls: 5 + 1 + 3 + 2 + 1, promptTokens: 500 + 80 + 300 + 10 + 9, completionTokens: 50 + 20 + 30 + 1, items: 2 });
  });
});

describe('strategyListOption', () => {
  it('takes distinct known strategies and names an unknown one', () => {
    expect(strategyListOption('strategies').parse('react,self_refine,reflection')).toEqual(['react', 'self_refine', 'reflection']);
    expect(() => strategyListOption('strategies').parse('react,tree')).toThrow(/Unknown --strategies 'tree'\. Allowed: react, self_refine, reflection, trajectory_reflection\./);
    expect(() => strategyListOption('strategies').parse('react,react')).toThrow(/distinct names/);
  });
});

describe('specListOption', () => {
  it('splits a list only where a SPEC scheme follows', () => {
    expect(specListOption('targets').parse('sim:dbbench?seed=1&faults=backticks:0.5,give_up:0.2,sim:dbbench?seed=2,openai:http://h:8000/v1#m')).toEqual([
      'sim:dbbench?seed=1&faults=backticks:0.5,give_up:0.2', 'sim:dbbench?seed=2', 'openai:http://h:8000/v1#m',
    ]);
    expect(specListOption('engineers').parse('symbolic,scripted:a.json')).toEqual(['symbolic', 'scripted:a.json']);
    expect(() => specListOption('targets').parse('sim:dbbench,sim:dbbench')).toThrow(/distinct SPECs/);
  });
});

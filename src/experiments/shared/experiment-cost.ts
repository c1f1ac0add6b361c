import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { EngineerResult } from '../../engineer/engineer.js';

/** What one role of an experiment cost: model calls and the tokens the servers reported. */
export interface RoleCost {
  modelCalls: number;
  promptTokens: number;
  completionTokens: number;
  /** Episodes (target) or engineer answers (engineer) behind the figures. */
  items: number;
}

/** Cost per role of everything recorded under an experiment's run directory. */
export interface ExperimentCost {
  /** Every episode played, replayed attempts and every arm included (a shared rerun counts once). */
  target: RoleCost;
  /** Every engineer answer asked for (one per batch folder); the symbolic engineer calls no model. */
  engineer: RoleCost;
}

const zero = (): RoleCost => ({ modelCalls: 0, promptTokens: 0, completionTokens: 0, items: 0 });

interface Usage { modelCalls?: number; promptTokens?: number; completionTokens?: number }

function add(cost: RoleCost, usage: Usage | undefined): void {
  cost.items++;
  cost.modelCalls += usage?.modelCalls ?? 0;
  cost.promptTokens += usage?.promptTokens ?? 0;
  cost.completionTokens += usage?.completionTokens ?? 0;
}

function addCalls(cost: RoleCost, usage: Usage | undefined): void {
  cost.modelCalls += usage?.modelCalls ?? 0;
  cost.promptTokens += usage?.promptTokens ?? 0;
  cost.completionTokens += usage?.completionTokens ?? 0;
}

/**
 * Sums the cost of an experiment from its files: the usage of every line of every `episodes.jsonl` (the
 * target's episodes, superseded attempts included: they were paid for) and of every `engineer.json`
 * (the engineer's answers); a Reflection record adds its reflection call and its second episode. Files are visited in sorted order, so the sums are deterministic.
 */
export function measureExperimentCost(root: string): ExperimentCost {
  const cost: ExperimentCost = { target: zero(), engineer: zero() };
  const visit = (dir: string): void => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(file);
      else if (entry.name === 'episodes.jsonl') {
        for (const line of readFileSync(file, 'utf8').split('\n')) {
          if (line.trim() === '') continue;
          let record: { usage?: Usage; detail?: { reflection?: { usage?: Usage; retry?: { usage?: Usage } } } };
          try {
            record = JSON.parse(line) as typeof record;
          } catch {
            continue; // a torn last line of a killed run: the store repairs it on open
          }
          add(cost.target, record.usage);
          // Reflection: the reflection call and the second episode are paid for too (the record's own usage is the first episode's).
          const reflection = record.detail?.reflection;
          if (reflection) {
            addCalls(cost.target, reflection.usage);
            addCalls(cost.target, reflection.retry?.usage);
          }
        }
      } else if (entry.name === 'engineer.json') {
        add(cost.engineer, (JSON.parse(readFileSync(file, 'utf8')) as EngineerResult).usage);
      }
    }
  };
  visit(root);
  return cost;
}

/** `target 120 call(s), 84,210 prompt + 9,120 completion tokens (60 episodes); engineer …`. */
export function formatExperimentCost(cost: ExperimentCost): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const role = (c: RoleCost, items: string) => `${n(c.modelCalls)} model call(s), ${n(c.promptTokens)} prompt + ${n(c.completionTokens)} completion tokens (${n(c.items)} ${items})`;
  return `cost: target ${role(cost.target, 'episodes')}; engineer ${role(cost.engineer, 'answers')}`;
}

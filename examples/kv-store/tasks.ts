/**
 * The task file: one JSON object a line. A task is an instruction, the store it starts from, what a correct
 * episode ends with (the final store, the submitted answer, or both) and a reference solution (the calls
 * that solve it, replayed by `env check` and known to the simulated target, never shown to the agent).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { z } from 'zod';
import { ConfigError } from 'harness-r1';

const Call = z.object({ tool: z.string(), args: z.record(z.string(), z.unknown()) }).strict();

export const KvTaskSchema = z
  .object({
    id: z.string().min(1),
    family: z.string().min(1),
    instruction: z.string().min(1),
    store: z.record(z.string(), z.string()),
    expect: z
      .object({ store: z.record(z.string(), z.string()).optional(), answer: z.string().optional() })
      .strict()
      .refine((e) => e.store !== undefined || e.answer !== undefined, 'expect needs a store, an answer or both'),
    solution: z.array(Call).min(1),
  })
  .strict();

export type KvTask = z.infer<typeof KvTaskSchema>;
export type KvCall = z.infer<typeof Call>;

/** The named splits shipped with the example, each a file in `tasks/`. */
export const KV_SPLITS = ['dev'] as const;

export const TASKS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'tasks');

export function splitFile(split: string): string {
  if (!(KV_SPLITS as readonly string[]).includes(split)) {
    throw new ConfigError({ message: `kv-store has no split '${split}'.`, field: 'split', allowed: KV_SPLITS });
  }
  return path.join(TASKS_DIR, `${split}.jsonl`);
}

/** Reads a task file; a line that is not a valid task is a usage error naming the file and line. */
export function loadKvTasks(file: string): KvTask[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (cause) {
    throw new ConfigError({ message: `kv-store task file ${file} cannot be read: ${(cause as Error).message}`, field: 'data', cause });
  }
  const tasks: KvTask[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      throw new ConfigError({ message: `${file}:${i + 1}: not valid JSON.`, field: 'data' });
    }
    const parsed = KvTaskSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new ConfigError({ message: `${file}:${i + 1}: ${issue.path.join('.') || 'task'}: ${issue.message}.`, field: 'data' });
    }
    tasks.push(parsed.data);
  });
  if (tasks.length === 0) throw new ConfigError({ message: `${file}: the file holds no tasks.`, field: 'data' });
  return tasks;
}

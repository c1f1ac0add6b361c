import type { DbBenchTask } from '../../../environments/dbbench/dbbench-task.js';
import { loadDbBenchFile, loadReadableDbBenchSplits, type DbBenchSplit } from '../../../environments/dbbench/load-tasks.js';
import { simHash } from './sim-rng.js';

/**
 * The simulated target's only privileged channel: an index from the task message (table information +
 * question) to the task record. Lookup is by the two lines every DBBench first user message carries,
 * `Additional table information about the question: …` and `Question: …`, so extra text the harness puts
 * into that message (evidence, a schema card) does not stop the match.
 */
export interface IndexedDbBenchTask {
  task: DbBenchTask;
  /** The split it came from, or `file` for a task file given to the run (`--data`). */
  split: DbBenchSplit | 'file';
  /** Stable identity for random draws: a hash of the table information and question, split-independent. */
  key: string;
}

export interface DbBenchTaskIndex {
  readonly size: number;
  /** Splits that could not be read (a bad line, say), with the reason; their tasks are unknown. */
  readonly unreadable?: readonly string[];
  /** Finds the task a first user message asks; undefined if the message is not one the target knows. */
  lookup(firstUserMessage: string): IndexedDbBenchTask | undefined;
}

const TABLE_PREFIX = 'Additional table information about the question:';
const QUESTION_PREFIX = 'Question:';

function normalize(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function identity(addDescription: string, description: string): string {
  return `${normalize(addDescription)}\u0000${normalize(description)}`;
}

/** Pulls the table-information and question lines out of a first user message. */
export function readTaskMessage(message: string): { addDescription: string; description: string } | undefined {
  const lines = message.split('\n');
  let addDescription: string | undefined;
  let questionStart = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (addDescription === undefined && line.startsWith(TABLE_PREFIX)) addDescription = line.slice(TABLE_PREFIX.length);
    if (line.startsWith(QUESTION_PREFIX)) questionStart = i;
  }
  if (addDescription === undefined || questionStart < 0) return undefined;
  // A question may itself span lines: everything from "Question:" to the end belongs to it.
  const description = [(lines[questionStart] ?? '').slice(QUESTION_PREFIX.length), ...lines.slice(questionStart + 1)].join('\n');
  return { addDescription, description };
}

/** Builds an index over already loaded tasks; earlier entries win when two hold the same question. */
export function createDbBenchTaskIndex(entries: readonly { task: DbBenchTask; split: DbBenchSplit | 'file' }[], unreadable: readonly string[] = []): DbBenchTaskIndex {
  const byIdentity = new Map<string, IndexedDbBenchTask>();
  for (const { task, split } of entries) {
    const id = identity(task.addDescription, task.description);
    if (byIdentity.has(id)) continue;
    byIdentity.set(id, { task, split, key: simHash('dbbench-task', id).slice(0, 24) });
  }
  return {
    size: byIdentity.size,
    ...(unreadable.length > 0 ? { unreadable } : {}),
    lookup(firstUserMessage: string) {
      const parts = readTaskMessage(firstUserMessage);
      if (parts === undefined) return undefined;
      return byIdentity.get(identity(parts.addDescription, parts.description));
    },
  };
}

const cache = new Map<string, DbBenchTaskIndex>();

/**
 * Loads the given task files (first, they win ties) and splits from `<dataDir>/dbbench/` (cached per data
 * dir, files and split order). A split that cannot be read is left out and named in `unreadable`: a bad
 * line in one file must not stop a run on another; a task file given to the run must load.
 */
export function loadDbBenchTaskIndex(dataDir: string, splits: readonly DbBenchSplit[], taskFiles: readonly string[] = []): DbBenchTaskIndex {
  const cacheKey = `${dataDir}\u0000${splits.join(',')}\u0000${taskFiles.join('\u0000')}`;
  const cached = cache.get(cacheKey);
  if (cached) return cached;
  const { loaded, unreadable } = loadReadableDbBenchSplits(dataDir, splits);
  const entries = [
    ...taskFiles.flatMap((file) => loadDbBenchFile(file).map((task) => ({ task, split: 'file' as const }))),
    ...loaded.flatMap(({ split, tasks }) => tasks.map((task) => ({ task, split }))),
  ];
  const index = createDbBenchTaskIndex(entries, unreadable.map((u) => `${u.split} (${u.error.message})`));
  cache.set(cacheKey, index);
  return index;
}

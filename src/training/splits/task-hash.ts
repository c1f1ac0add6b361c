import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

import { ConfigError } from '../../episode/index.js';
import type { AlfworldGameRecord } from '../../environments/alfworld/load-games.js';
import { pyJsonDumps } from '../../environments/webshop/canonical-json.js';
import { compareCodePoints } from '../../environments/webshop/goals.js';
import { pyJsonLoads, type PyValue } from '../../python/python-json.js';

/**
 * A task's content hash: SHA-256 over Python's
 * `json.dumps(record, sort_keys=True, ensure_ascii=False, separators=(",", ":"))` of the task's record
 * as the data file holds it, so anyone can recompute it with one line of Python. (WebShop tasks use
 * the identity protocol's task-manifest digest instead; see `webshop-pool.ts`.)
 */
export function canonicalSha256(value: PyValue): string {
  return createHash('sha256').update(pyJsonDumps(sortKeys(value)), 'utf8').digest('hex');
}

function sortKeys(value: PyValue): PyValue {
  if (value instanceof Map) {
    return new Map([...value].sort(([a], [b]) => compareCodePoints(a, b)).map(([k, v]) => [k, sortKeys(v)]));
  }
  if (Array.isArray(value)) return value.map(sortKeys);
  return value;
}

/**
 * The content hash of every record of a DBBench task file, in the loader's task order (one per
 * non-blank line). The file is decoded with Python's JSON rules (ints and floats stay distinct), so
 * the hash equals the Python one byte for byte.
 */
export function dbBenchRecordHashes(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (cause) {
    throw new ConfigError({ message: `Cannot read DBBench task file ${file}: ${(cause as Error).message}`, field: 'pool', cause });
  }
  const hashes: string[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    const decoded = pyJsonLoads(line);
    if (!decoded.ok) throw new ConfigError({ message: `${file}:${i + 1}: not valid JSON (${decoded.error.message}).`, field: 'pool' });
    hashes.push(canonicalSha256(decoded.value));
  }
  return hashes;
}

/** The content hash of a shipped ALFWorld game: its record with the data file's field names. */
export function alfworldGameHash(game: AlfworldGameRecord): string {
  return canonicalSha256(
    new Map<string, PyValue>([
      ['id', game.id],
      ['task_type', game.taskType],
      ['goal', game.goal],
      ['solvable', game.solvable],
      ['walkthrough_2_1_2', [...game.walkthrough]],
      ['pddl_problem', game.pddlProblem],
    ]),
  );
}

/** SHA-256 of a file's bytes. */
export function fileSha256(file: string): { bytes: number; sha256: string } {
  const data = readFileSync(file);
  return { bytes: data.length, sha256: createHash('sha256').update(data).digest('hex') };
}

import { ConfigError, type EpisodeRecord } from '../episode/index.js';

/**
 * The default cap on one serialized episode record: 16 MiB. The heaviest honest records (50 text-world steps,
 * 20 rounds of reasoning text) are a few hundred KB; a record past this is a runaway (a model that sent
 * megabytes of content), and past about 512 MB JSON.stringify fails outright.
 */
export const DEFAULT_MAX_RECORD_BYTES = 16 * 1024 * 1024;

/** The environment variable that sets the cap when no option does. */
export const MAX_RECORD_BYTES_ENV = 'HARNESS_MAX_RECORD_BYTES';

/** The cap to use: an explicit value, else `HARNESS_MAX_RECORD_BYTES`, else the default. Bad values are a ConfigError. */
export function resolveMaxRecordBytes(explicit?: number, env: NodeJS.ProcessEnv = process.env): number {
  if (explicit !== undefined) return checkCap(explicit, '--max-record-bytes');
  const text = env[MAX_RECORD_BYTES_ENV];
  if (text === undefined || text.trim() === '') return DEFAULT_MAX_RECORD_BYTES;
  return checkCap(Number(text), MAX_RECORD_BYTES_ENV);
}

function checkCap(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new ConfigError({ message: `${name} must be a positive integer number of bytes, got ${String(value)}.`, field: 'maxRecordBytes' });
  }
  return value;
}

/** A record ready to append: its line, and the record it holds (the replacement when the original did not fit). */
export interface SerializedRecord {
  line: string;
  record: EpisodeRecord;
}

/**
 * Serializes a record for the log. A record that cannot be serialized (JSON.stringify throws: a string past
 * the engine's limit, a cycle) or whose line is over `capBytes` is replaced by a small model_error record of
 * the same task and attempt naming the reason and the sizes, so one runaway episode is recorded as such and
 * the run goes on.
 */
export function serializeRecord(record: EpisodeRecord, capBytes: number): SerializedRecord {
  // Text alone already past the cap (a lower bound on the line's bytes) is refused before JSON.stringify
  // builds a string of that size.
  const text = textLength(record, capBytes);
  if (text > capBytes) return replacement(record, capBytes, `the record is over the ${capBytes}-byte cap (more than ${capBytes} characters of text)`, undefined);
  let line: string;
  try {
    line = JSON.stringify(record);
  } catch (error) {
    return replacement(record, capBytes, `the record cannot be serialized (${error instanceof Error ? `${error.name}: ${error.message}` : String(error)})`, undefined);
  }
  const bytes = Buffer.byteLength(line, 'utf8');
  if (bytes > capBytes) return replacement(record, capBytes, `the record is over the ${capBytes}-byte cap (${bytes} bytes)`, bytes);
  return { line, record };
}

function replacement(original: EpisodeRecord, capBytes: number, reason: string, recordBytes: number | undefined): SerializedRecord {
  const record: EpisodeRecord = {
    schemaVersion: original.schemaVersion,
    task: original.task,
    attempt: original.attempt,
    outcome: 'model_error',
    reward: 0,
    rounds: original.rounds,
    detail: {
      error: `episode record not stored: ${reason} (set --max-record-bytes or ${MAX_RECORD_BYTES_ENV} to change it)`,
      recordCap: {
        capBytes,
        ...(recordBytes !== undefined ? { recordBytes } : {}),
        originalOutcome: original.outcome,
        messages: original.messages.length,
        steps: original.steps.length,
        hookCalls: original.hookTrace.length,
        largestMessageChars: original.messages.reduce((most, m) => Math.max(most, textLength(m, Number.MAX_SAFE_INTEGER)), 0),
      },
    },
    steps: [],
    hookTrace: [],
    messages: [],
    usage: original.usage,
  };
  return { line: JSON.stringify(record), record };
}

/** Characters of string data (keys included) in a value, counting stops once past `limit`; cycles are not followed. */
function textLength(value: unknown, limit: number): number {
  let total = 0;
  const seen = new Set<object>();
  const stack: unknown[] = [value];
  while (stack.length > 0 && total <= limit) {
    const v = stack.pop();
    if (typeof v === 'string') total += v.length;
    else if (typeof v === 'object' && v !== null && !seen.has(v)) {
      seen.add(v);
      if (Array.isArray(v)) {
        for (const x of v) stack.push(x);
      } else {
        for (const [k, x] of Object.entries(v)) {
          total += k.length;
          stack.push(x);
        }
      }
    }
  }
  return total;
}

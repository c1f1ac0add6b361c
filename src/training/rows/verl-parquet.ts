import { parquetWriteBuffer } from 'hyparquet-writer';

import { canonicalJson } from '../../evaluation/improve/rerun-cache-key.js';
import { VERL_ABILITY, VERL_REWARD_STYLE, verlDataSource } from './formats.js';
import type { RlRow } from './rl-row.js';

const utf8 = (name: string) => ({ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' }) as const;

/** verl's columns: `data_source`, `prompt` (a list of {role, content}), `ability`, `reward_model`, `extra_info`. */
const SCHEMA = [
  { name: 'root', num_children: 5 },
  utf8('data_source'),
  { name: 'prompt', repetition_type: 'REQUIRED', converted_type: 'LIST', num_children: 1 },
  { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
  { name: 'element', repetition_type: 'REQUIRED', num_children: 2 },
  utf8('role'),
  utf8('content'),
  utf8('ability'),
  { name: 'reward_model', repetition_type: 'REQUIRED', num_children: 2 },
  utf8('style'),
  utf8('ground_truth'),
  { name: 'extra_info', repetition_type: 'REQUIRED', num_children: 5 },
  { name: 'index', type: 'INT64', repetition_type: 'REQUIRED' },
  utf8('benchmark'),
  utf8('batch_tag'),
  utf8('split'),
  utf8('metadata'),
] as const;

/**
 * The rows as a verl parquet dataset (uncompressed, no statistics, so the bytes depend only on the rows).
 * `extra_info.metadata` is the row's whole metadata as canonical JSON; `extra_info.index` its position.
 */
export function verlParquet(rows: readonly RlRow[]): Uint8Array {
  const buffer = parquetWriteBuffer({
    columnData: [
      { name: 'data_source', data: rows.map((r) => verlDataSource(r.metadata.benchmark)) },
      { name: 'prompt', data: rows.map((r) => r.prompt.map((m) => ({ role: m.role, content: m.content ?? '' }))) },
      { name: 'ability', data: rows.map(() => VERL_ABILITY) },
      { name: 'reward_model', data: rows.map(() => ({ style: VERL_REWARD_STYLE, ground_truth: '' })) },
      {
        name: 'extra_info',
        data: rows.map((r, i) => ({ index: BigInt(i), benchmark: r.metadata.benchmark, batch_tag: r.metadata.batch_tag, split: r.metadata.split, metadata: canonicalJson(r.metadata) })),
      },
    ],
    schema: SCHEMA as unknown as Parameters<typeof parquetWriteBuffer>[0]['schema'],
    codec: 'UNCOMPRESSED',
    statistics: false,
    createdBy: 'harness-r1',
  });
  return new Uint8Array(buffer);
}

/**
 * The RL row in each trainer's input format. The release's JSONL row is the source; the others carry
 * the same prompt and the whole metadata (as canonical JSON text where a trainer needs fixed columns), so a
 * reward function can always recover the row:
 *
 * | format | file | one record |
 * |---|---|---|
 * | `relax` (Relax, slime) | `rows.relax.jsonl` | the release row `{prompt, label: "", metadata}` |
 * | `verl` | `rows.verl.parquet` | `data_source` `harness_r1/<bench>`, `prompt` (list of {role, content}), `ability`, `reward_model` {style, ground_truth: ""}, `extra_info` {index, benchmark, batch_tag, split, metadata (JSON)} |
 * | `openrlhf` | `rows.openrlhf.jsonl` | `{prompt, label}`: `--input_key prompt --label_key label --apply_chat_template`; the label is the metadata as JSON, the only field OpenRLHF forwards to a remote reward |
 * | `trl` | `rows.trl.jsonl` | `{prompt, benchmark, batch_tag, harness_r1_metadata}`: GRPOTrainer passes extra columns to reward functions; metadata as JSON text keeps the column type fixed across rows |
 */
import { canonicalJson } from '../../evaluation/improve/rerun-cache-key.js';
import type { RlRow } from './rl-row.js';

export const RL_FORMATS = ['relax', 'verl', 'openrlhf', 'trl'] as const;
export type RlFormat = (typeof RL_FORMATS)[number];

export function isRlFormat(value: string): value is RlFormat {
  return (RL_FORMATS as readonly string[]).includes(value);
}

export const RL_FORMAT_FILES: Readonly<Record<RlFormat, string>> = {
  relax: 'rows.relax.jsonl',
  verl: 'rows.verl.parquet',
  openrlhf: 'rows.openrlhf.jsonl',
  trl: 'rows.trl.jsonl',
};

/** verl's `data_source` of a benchmark's rows (the reward function routes on it). */
export function verlDataSource(benchmark: string): string {
  return `harness_r1/${benchmark}`;
}

export const VERL_ABILITY = 'harness_engineering';
export const VERL_REWARD_STYLE = 'harness_r1_rerun';

/** One JSONL line of a row in a JSONL format. */
export function jsonlRecord(row: RlRow, format: Exclude<RlFormat, 'verl'>): unknown {
  switch (format) {
    case 'relax':
      return row;
    case 'openrlhf':
      return { prompt: row.prompt, label: canonicalJson(row.metadata) };
    case 'trl':
      return { prompt: row.prompt, benchmark: row.metadata.benchmark, batch_tag: row.metadata.batch_tag, harness_r1_metadata: canonicalJson(row.metadata) };
  }
}

/** JSONL text of rows: one JSON object per line, a final newline. */
export function toJsonl(rows: readonly RlRow[], format: Exclude<RlFormat, 'verl'>): string {
  return rows.map((r) => `${JSON.stringify(jsonlRecord(r, format))}\n`).join('');
}

/**
 * The cold-start SFT row and its files. One row is one packet's kept teacher answer: the engineer prompt
 * `[system, user]` exactly as `export rl` and evaluation build it, then the assistant turn in the row's
 * response protocol (`assistant-turn.ts`), with per-row provenance in `metadata`.
 *
 * | format | file | one record |
 * |---|---|---|
 * | (always) | `<bench>/sft.jsonl` | `{messages, metadata}` with metadata as an object (the source the others are written from) |
 * | `llamafactory` | `<bench>/sft.llamafactory.json` + `<out>/dataset_info.json` | a JSON array of `{messages, metadata}` (metadata as JSON text), read as sharegpt with OpenAI-style tags |
 * | `trl` | `<bench>/sft.trl.jsonl` | `{messages, metadata}` (metadata as JSON text): TRL's conversational `messages` rows |
 */
import type { ChatMessage } from '../../episode/index.js';
import { canonicalJson } from '../../evaluation/improve/rerun-cache-key.js';
import type { RowIdentity } from '../rows/rl-row.js';

export const SFT_ROW_VERSION = 'harness-r1-sft-row-v1' as const;
export const SFT_FORMATS = ['llamafactory', 'trl'] as const;
export type SftFormat = (typeof SFT_FORMATS)[number];

export function isSftFormat(value: string): value is SftFormat {
  return (SFT_FORMATS as readonly string[]).includes(value);
}

export const SFT_ROWS_FILE = 'sft.jsonl';
export const SFT_FORMAT_FILES: Readonly<Record<SftFormat, string>> = { llamafactory: 'sft.llamafactory.json', trl: 'sft.trl.jsonl' };
export const DATASET_INFO_FILE = 'dataset_info.json';

/** Where a kept answer came from and what its rerun measured. */
export interface SftProvenance {
  sft_row_version: typeof SFT_ROW_VERSION;
  benchmark: string;
  batch_tag: string;
  batch_size: number;
  baseline_pass: number;
  baseline_rewards: Record<string, number>;
  teacher_spec: string;
  teacher_label: string;
  /** The built-in symbolic engineer: its think text is rendered from its notes, not a model's reasoning. */
  teacher_symbolic: boolean;
  /** The protocol the teacher answered in (its answer is rewritten in `response_protocol`). */
  teacher_protocol: string;
  sample: number;
  sampling: { temperature: number; top_p: number; seed: number };
  verdict: 'kept';
  eval_status: string;
  /** The metric's delta of the rerun against the stored baseline. */
  rerun_delta: number;
  delta_pass_rate: number;
  delta_average_reward: number;
  patched_pass: number;
  /** Tasks that failed in the baseline and pass with the patch, and the reverse. */
  rescued: number[];
  regressed: number[];
  patch_sha256: string;
  rerun_cache_key: string;
  assistant_chars: number;
  /** Answers asked for this packet, and how many passed the filter. */
  candidates: number;
  eligible: number;
}

/** Provenance, then the identity fields of the packet as `export rl` writes them (without the RL row version). */
export type SftRowMetadata = SftProvenance & Omit<RowIdentity, 'row_version'>;

export interface SftRow {
  messages: [ChatMessage & { role: 'system' }, ChatMessage & { role: 'user' }, ChatMessage & { role: 'assistant' }];
  metadata: SftRowMetadata;
}

export function buildSftRow(system: string, user: string, assistant: string, metadata: SftRowMetadata): SftRow {
  return {
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: user },
      { role: 'assistant', content: assistant },
    ],
    metadata,
  };
}

/** The record a trainer reads: the messages and the metadata as JSON text (a fixed column type). */
function trainerRecord(row: SftRow): { messages: SftRow['messages']; metadata: string } {
  return { messages: row.messages, metadata: canonicalJson(row.metadata) };
}

export function sftJsonl(rows: readonly SftRow[]): string {
  return rows.map((r) => `${JSON.stringify(r)}\n`).join('');
}

export function sftFormatContent(rows: readonly SftRow[], format: SftFormat): string {
  return format === 'llamafactory' ? `${JSON.stringify(rows.map(trainerRecord), null, 2)}\n` : rows.map((r) => `${JSON.stringify(trainerRecord(r))}\n`).join('');
}

/** LLaMA-Factory's dataset name of a benchmark's rows. */
export function llamaFactoryDatasetName(benchmark: string): string {
  return `harness_r1_sft_${benchmark}`;
}

/** A `dataset_info.json` entry: sharegpt with OpenAI-style `messages` (role/content tags). */
export function datasetInfoEntry(fileName: string): Record<string, unknown> {
  return {
    file_name: fileName,
    formatting: 'sharegpt',
    columns: { messages: 'messages' },
    tags: { role_tag: 'role', content_tag: 'content', user_tag: 'user', assistant_tag: 'assistant', system_tag: 'system' },
  };
}

/**
 * The online-RL row of Harness-R1 (the release README's "Build online-RL prompts" row): the engineer
 * prompt `[system, user]`, an empty label, and metadata that freezes the batch's no-harness baseline.
 * The release's fields come first, in its order; ours follow and make the row checkable: which tasks
 * (split identities, content hashes, environment indices), which prompt (template version, static-prefix
 * and whole-prompt digests, protocol) and which target and serving options the baseline was played with.
 * A reward computed for this row is meaningful only under the same target, serving and prompt
 * (`checkRowContext`).
 */
import { createHash } from 'node:crypto';

import type { ChatMessage } from '../../episode/index.js';
import { canonicalJson } from '../../evaluation/improve/rerun-cache-key.js';

export const RL_ROW_VERSION = 'harness-r1-rl-row-v1' as const;

/** The release's metadata fields, in its order. */
export interface ReleaseRowMetadata {
  benchmark: string;
  batch_tag: string;
  start: number;
  end: number;
  batch_size: number;
  baseline_pass: number;
  /** Per task, keyed by the environment task index (as text). */
  baseline_rewards: Record<string, number>;
  target_model: string;
  target_agent_name: string;
}

/** Our identity fields, after the release's. */
export interface RowIdentity {
  row_version: typeof RL_ROW_VERSION;
  /** The manifest partition the tasks come from (`rl_train`). */
  split: string;
  /** Split-manifest identities of the batch's tasks, in batch order. */
  task_ids: string[];
  /** Their content SHA-256 as the manifest records it (null when the data lacks the content). */
  task_sha256: (string | null)[];
  /** The environment split and task indices that play them. */
  env_split: string;
  /** How the environment was opened: protocol, the benchmark's options, rounds (null: the benchmark's default). */
  env_protocol: string;
  env_options: Record<string, unknown>;
  env_max_rounds: number | null;
  task_indices: number[];
  /** Tasks whose baseline ended in an infrastructure failure: not part of the baseline. */
  excluded_tasks: number[];
  split_procedure: string;
  /** SHA-256 of the manifest's serialized bytes. */
  split_manifest_sha256: string;
  reward_threshold: number;
  reward_metric: string;
  response_protocol: string;
  schema_style: string;
  prompt_version: string;
  prompt_static_prefix_sha256: string;
  /** SHA-256 of the canonical JSON of the prompt messages and the prefill. */
  prompt_sha256: string;
  packet_format: string;
  packet_failures: number;
  packet_included: number;
  target_spec: string;
  target_simulated: boolean;
  /** Everything that changes what the target's episodes mean: the environment identity and rounds. */
  target_serving: Record<string, unknown>;
  /** The baseline run store, relative to the export folder. */
  baseline_run: string;
}

export type RlRowMetadata = ReleaseRowMetadata & RowIdentity;

export interface RlRow {
  prompt: [ChatMessage & { role: 'system' }, ChatMessage & { role: 'user' }];
  label: '';
  metadata: RlRowMetadata;
}

/** The whole-prompt digest recorded in `prompt_sha256`. */
export function promptSha256(messages: readonly ChatMessage[], prefill: string | undefined): string {
  const payload = canonicalJson({ messages: messages.map((m) => ({ role: m.role, content: m.content ?? '' })), prefill: prefill ?? null });
  return createHash('sha256').update(payload, 'utf8').digest('hex');
}

/** A row with its keys in the written order (release fields first), whatever order they were given in. */
export function buildRlRow(system: string, user: string, release: ReleaseRowMetadata, identity: RowIdentity): RlRow {
  const metadata: RlRowMetadata = {
    benchmark: release.benchmark,
    batch_tag: release.batch_tag,
    start: release.start,
    end: release.end,
    batch_size: release.batch_size,
    baseline_pass: release.baseline_pass,
    baseline_rewards: release.baseline_rewards,
    target_model: release.target_model,
    target_agent_name: release.target_agent_name,
    ...identity,
  };
  return { prompt: [{ role: 'system', content: system }, { role: 'user', content: user }], label: '', metadata };
}

/** The release row's shape: what every exported row must have, and nothing a reader of the release would trip on. */
export function releaseShapeProblems(value: unknown): string[] {
  const problems: string[] = [];
  if (typeof value !== 'object' || value === null) return ['row is not an object'];
  const row = value as Record<string, unknown>;
  const keys = Object.keys(row);
  if (keys.join(',') !== 'prompt,label,metadata') problems.push(`row keys are ${keys.join(',')}, not prompt,label,metadata`);
  const prompt = row.prompt;
  if (!Array.isArray(prompt) || prompt.length !== 2) problems.push('prompt is not two messages');
  else {
    const roles = prompt.map((m) => (m as { role?: unknown }).role);
    if (roles[0] !== 'system' || roles[1] !== 'user') problems.push(`prompt roles are ${roles.join(',')}`);
    if (prompt.some((m) => typeof (m as { content?: unknown }).content !== 'string' || Object.keys(m as object).join(',') !== 'role,content')) problems.push('prompt messages are not {role, content} strings');
  }
  if (row.label !== '') problems.push('label is not ""');
  const m = row.metadata as Record<string, unknown> | undefined;
  if (typeof m !== 'object' || m === null) return [...problems, 'metadata is not an object'];
  for (const key of ['benchmark', 'batch_tag', 'target_model', 'target_agent_name']) if (typeof m[key] !== 'string') problems.push(`metadata.${key} is not a string`);
  for (const key of ['start', 'end', 'batch_size', 'baseline_pass']) if (!Number.isInteger(m[key])) problems.push(`metadata.${key} is not an integer`);
  const rewards = m.baseline_rewards as Record<string, unknown> | undefined;
  if (typeof rewards !== 'object' || rewards === null) problems.push('metadata.baseline_rewards is not an object');
  else {
    if (Object.values(rewards).some((r) => typeof r !== 'number')) problems.push('metadata.baseline_rewards holds a non-number');
    if (Object.keys(rewards).length !== m.batch_size) problems.push('metadata.batch_size differs from the number of baseline rewards');
  }
  if (Number.isInteger(m.start) && Number.isInteger(m.end) && (m.end as number) <= (m.start as number)) problems.push('metadata.end is not after start');
  return problems;
}

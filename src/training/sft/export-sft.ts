import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

import type { Engineer } from '../../engineer/engineer.js';
import type { EvalStatus } from '../../episode/eval-status.js';
import type { RewardMetric } from '../../episode/index.js';
import type { ImproveEvent } from '../../evaluation/improve/improve-batch.js';
import { judgeProposal, type RewardPathContext } from '../../evaluation/improve/judge-proposal.js';
import { canonicalJson } from '../../evaluation/improve/rerun-cache-key.js';
import { assertNoLeakage } from '../../task-splits/index.js';
import { packetIdentity } from '../rows/export-rl.js';
import { playTrainingBatches, type TrainingBaselineOptions, type TrainingPacket } from '../rows/training-batches.js';
import { writeFileAtomic } from '../rows/write-atomic.js';
import { answerParts, assistantTurn } from './assistant-turn.js';
import { selectCandidate, SFT_REJECTIONS, type CandidateFacts, type SftFilterOptions, type SftRejection } from './sft-filter.js';
import { buildSftRow, DATASET_INFO_FILE, datasetInfoEntry, llamaFactoryDatasetName, SFT_FORMAT_FILES, SFT_ROW_VERSION, SFT_ROWS_FILE, sftFormatContent, sftJsonl, type SftFormat, type SftRow } from './sft-row.js';
import { teacherAnswer } from './teacher-answers.js';

export const SFT_SUMMARY_FILE = 'sft-export.json';
export const CANDIDATES_FILE = 'candidates.jsonl';

export interface ExportSftOptions extends TrainingBaselineOptions {
  opened: { protocol: string; options: Record<string, unknown>; maxRounds: number | null };
  metric: RewardMetric;
  formats: readonly SftFormat[];
  /** One teacher per sample (sample k seeded with `seed·1000 + k`). */
  teachers: readonly Engineer[];
  teacherSpec: string;
  sampling: { temperature: number; topP: number; seed: number };
  filter: SftFilterOptions;
  /** The reward path of `improve` without what the export fills in itself. */
  reward: Pick<RewardPathContext, 'patchRules' | 'openEnvironment' | 'compiler' | 'pool' | 'maxInfraRetries' | 'rerunContext'>;
  onEvent?: (event: ImproveEvent) => void;
}

/** One teacher answer as judged (a line of `candidates.jsonl`). */
export interface SftCandidate {
  batch_tag: string;
  sample: number;
  verdict: 'kept' | SftRejection | 'not_best';
  /** The structural rule an incomplete answer broke, or the validation rejection of an invalid one. */
  detail: string | null;
  status: EvalStatus | null;
  rerun_delta: number | null;
  rescued: number[];
  regressed: number[];
  assistant_chars: number;
  patch_sha256: string | null;
  answer_reused: boolean;
}

export type Written = { file: string; rows: number; bytes: number; sha256: string };

export interface ExportSftSummary {
  benchmark: string;
  partition: string;
  teacherSpec: string;
  teacherLabel: string;
  teacherSymbolic: boolean;
  targetSpec: string;
  targetSimulated: boolean;
  /** What the numbers describe when they come from the symbolic teacher or a simulated target. */
  labels: string[];
  k: number;
  sampling: { temperature: number; topP: number; seed: number };
  filter: Required<SftFilterOptions>;
  tasks: { inPartition: number; unplayable: number; played: number };
  batches: { total: number; packets: number; noFailures: number; infraExcludedTasks: number };
  baselinePassRate: number;
  candidates: number;
  kept: number;
  packetsWithoutRow: number;
  /** Candidates per verdict other than kept (every reason listed, 0 included). */
  rejected: Record<SftRejection | 'not_best', number>;
  files: Written[];
}

const sha256 = (content: string) => createHash('sha256').update(content).digest('hex');

/**
 * `export sft`: the frozen target's baseline over a training partition (shared with `export rl`); per
 * packet, K teacher answers, each rewritten as the row's assistant turn, validated and rerun through the
 * reward path of `improve` (identical patches share one rerun); the SFT filter keeps at most one per packet.
 * Writes `<out>/<bench>/` (baseline, answers, reruns, sft.jsonl, the formats, candidates.jsonl,
 * sft-export.json) and `<out>/dataset_info.json` over every benchmark exported into `<out>` so far.
 */
export async function exportSft(o: ExportSftOptions): Promise<ExportSftSummary> {
  const bench = o.benchmark.name;
  const benchDir = path.join(o.outDir, bench);
  const played = await playTrainingBatches(o, 'sft rows');
  const ctx: RewardPathContext = {
    ...o.reward, benchmark: o.benchmark, split: o.environment.split, rootDir: benchDir, target: o.target, concurrency: o.concurrency, threshold: o.threshold, metric: o.metric,
    ...(o.onEvent ? { onProgress: o.onEvent } : {}),
  };
  const rows: SftRow[] = [];
  const candidates: SftCandidate[] = [];
  for (const packet of played.packets) {
    const judged = await judgePacket(o, ctx, packet, benchDir);
    const selection = selectCandidate(judged.map((j) => j.facts), o.filter);
    for (const j of judged) {
      const { batch_tag, sample, ...rest } = j.candidate;
      candidates.push({ batch_tag, sample, verdict: selection.verdicts.get(j.facts.sample) ?? 'kept', ...rest });
    }
    const kept = judged.find((j) => j.facts.sample === selection.kept);
    if (kept?.row) rows.push(kept.row({ candidates: judged.length, eligible: judged.filter((j) => { const v = selection.verdicts.get(j.facts.sample); return v === null || v === 'not_best'; }).length }));
    o.onEvent?.({ kind: 'stage', batchTag: packet.batchTag, stage: 'done', detail: kept ? `kept sample ${kept.facts.sample} (delta ${kept.facts.delta!.toFixed(3)})` : 'no candidate kept' });
  }
  assertNoLeakage(o.manifest, rows.flatMap((r) => r.metadata.task_ids.map((id, k) => ({ id, sha256: r.metadata.task_sha256[k] ?? null }))), 'sft rows');

  const files: Written[] = [];
  const put = (file: string, content: string, count: number) => {
    writeFileAtomic(file, content);
    files.push({ file: path.relative(o.outDir, file).split(path.sep).join('/'), rows: count, bytes: Buffer.byteLength(content), sha256: sha256(content) });
  };
  put(path.join(benchDir, SFT_ROWS_FILE), sftJsonl(rows), rows.length);
  for (const format of o.formats) put(path.join(benchDir, SFT_FORMAT_FILES[format]), sftFormatContent(rows, format), rows.length);
  put(path.join(benchDir, CANDIDATES_FILE), candidates.map((c) => `${JSON.stringify(c)}\n`).join(''), candidates.length);
  if (o.formats.includes('llamafactory')) put(path.join(o.outDir, DATASET_INFO_FILE), datasetInfo(o.outDir), 0);

  const rejected = Object.fromEntries([...SFT_REJECTIONS, 'not_best'].map((r) => [r, candidates.filter((c) => c.verdict === r).length])) as ExportSftSummary['rejected'];
  const teacher = o.teachers[0]!;
  const symbolic = o.teachers.some((t) => t.kind === 'symbolic');
  const summary: ExportSftSummary = {
    benchmark: bench, partition: o.partition,
    teacherSpec: o.teacherSpec, teacherLabel: teacher.label, teacherSymbolic: symbolic,
    targetSpec: o.targetSpec, targetSimulated: o.target.simulated,
    labels: [...(symbolic ? ['SYMBOLIC teacher (built-in rule-based engineer; think text rendered from its notes)'] : []), ...(o.target.simulated ? ['SIMULATED target (numbers describe the simulation, not a model)'] : [])],
    k: o.teachers.length, sampling: o.sampling,
    filter: { allowRegressions: o.filter.allowRegressions ?? false, keepInert: o.filter.keepInert ?? false },
    tasks: { inPartition: o.manifest.partitions[o.partition].tasks.length, unplayable: o.located.unplayable.length, played: played.tasks.length },
    batches: { total: played.batches.length, packets: played.packets.length, noFailures: played.noFailures, infraExcludedTasks: played.infraExcludedTasks },
    baselinePassRate: played.baselinePassRate,
    candidates: candidates.length, kept: rows.length, packetsWithoutRow: played.packets.length - rows.length, rejected, files,
  };
  writeFileAtomic(path.join(benchDir, SFT_SUMMARY_FILE), `${JSON.stringify(summary, null, 2)}\n`);
  return summary;
}

/** `<out>/dataset_info.json`: one LLaMA-Factory dataset per benchmark folder that holds SFT rows. */
function datasetInfo(outDir: string): string {
  const entries: Record<string, unknown> = {};
  for (const name of readdirSync(outDir).sort()) {
    if (existsSync(path.join(outDir, name, SFT_FORMAT_FILES.llamafactory))) entries[llamaFactoryDatasetName(name)] = datasetInfoEntry(`${name}/${SFT_FORMAT_FILES.llamafactory}`);
  }
  return `${JSON.stringify(entries, null, 2)}\n`;
}

interface Judged {
  facts: CandidateFacts;
  candidate: Omit<SftCandidate, 'verdict'>;
  row?: (counts: { candidates: number; eligible: number }) => SftRow;
}

/** The K answers of one packet, each through completeness, validation and rerun. */
async function judgePacket(o: ExportSftOptions, ctx: RewardPathContext, packet: TrainingPacket, benchDir: string): Promise<Judged[]> {
  const { row_version: _rlVersion, ...identity } = packetIdentity(o, packet);
  const evidence = { baseline: new Map(packet.rewards), threshold: o.threshold, metric: o.metric };
  const out: Judged[] = [];
  for (const [k, teacher] of o.teachers.entries()) {
    o.onEvent?.({ kind: 'stage', batchTag: packet.batchTag, stage: 'engineer', detail: `sample ${k}` });
    const sampling = { ...o.sampling, seed: o.sampling.seed * 1000 + k };
    const { answer, stored } = await teacherAnswer(teacher, packet, { teacherSpec: o.teacherSpec, teacherLabel: teacher.label, sample: k, sampling, promptSha256: identity.prompt_sha256 }, o.protocol, benchDir);
    const base = { batch_tag: packet.batchTag, sample: k, rescued: [] as number[], regressed: [] as number[], rerun_delta: null, assistant_chars: 0, patch_sha256: null, answer_reused: stored };
    const facts: CandidateFacts = { sample: k, incomplete: null, status: null, delta: null, rescued: [], regressed: [], chars: 0 };
    if (answer.kind !== 'text') {
      const status = answer.kind === 'failed' ? 'engineer_request_failed_treated_as_no_patch' : 'no_patch_proposed';
      out.push({ facts: { ...facts, status }, candidate: { ...base, detail: answer.kind === 'failed' ? answer.detail : null, status } });
      continue;
    }
    const parts = answerParts(answer.text, answer.protocol);
    if (!parts.complete) {
      out.push({ facts: { ...facts, incomplete: parts.rule }, candidate: { ...base, detail: `${parts.rule}: ${parts.message}`, status: null } });
      continue;
    }
    const assistant = assistantTurn(parts, o.protocol);
    const judged = await judgeProposal(ctx, { tag: packet.batchTag, episodes: packet.episodes, evidence }, { status: 'ok', proposal: { kind: 'response', text: assistant, protocol: o.protocol } });
    const raw = judged.decision.raw;
    const patchSha = judged.patch ? sha256(canonicalJson(judged.patch)) : null;
    const measured = { status: judged.decision.status, delta: raw?.score ?? null, rescued: raw?.rescued ?? [], regressed: raw?.regressed ?? [], chars: assistant.length };
    out.push({
      facts: { ...facts, ...measured },
      candidate: { ...base, detail: judged.rejection, status: measured.status, rerun_delta: measured.delta, rescued: measured.rescued, regressed: measured.regressed, assistant_chars: measured.chars, patch_sha256: patchSha },
      ...(raw && judged.rerun && patchSha
        ? {
            row: (counts) =>
              buildSftRow(packet.prompt.system, packet.prompt.user, assistant, {
                sft_row_version: SFT_ROW_VERSION, benchmark: o.benchmark.name, batch_tag: packet.batchTag, batch_size: packet.kept.length, baseline_pass: packet.pass,
                baseline_rewards: Object.fromEntries(packet.rewards.map(([i, r]) => [String(i), r])),
                teacher_spec: o.teacherSpec, teacher_label: teacher.label, teacher_symbolic: teacher.kind === 'symbolic', teacher_protocol: answer.protocol,
                sample: k, sampling: { temperature: sampling.temperature, top_p: sampling.topP, seed: sampling.seed }, verdict: 'kept', eval_status: measured.status,
                rerun_delta: raw.score, delta_pass_rate: raw.deltaPassRate, delta_average_reward: raw.deltaAverageReward, patched_pass: raw.patchedPass,
                rescued: raw.rescued, regressed: raw.regressed, patch_sha256: patchSha, rerun_cache_key: judged.rerun!.cacheKey, assistant_chars: assistant.length,
                ...counts, ...identity,
              }),
          }
        : {}),
    });
  }
  return out;
}

/**
 * `harness-r1 export agent-sft`: the target's own successful episodes as tool-calling SFT data, one per task.
 *
 * ```
 * <out>/agent_sft.jsonl            OpenAI `messages` + `tools` + `metadata` (TRL's SFT trainer)
 * <out>/agent_sft_sharegpt.jsonl   LLaMA-Factory sharegpt with tools (function_call / observation turns)
 * <out>/dataset_info.json          the LLaMA-Factory entry for the sharegpt file
 * <out>/manifest.json              sources, settings and counts per benchmark
 * ```
 *
 * Every row records its kind (`harnessed`: played with a patch installed; `no_intervention`: without), its
 * source run and run store, task identity and reward. Same sources and settings give the same bytes.
 */
import path from 'node:path';

import type { ToolSpec } from '../../episode/index.js';
import type { RunArtifacts } from '../../run-dir/read-run.js';
import { writeFileAtomic } from '../rows/write-atomic.js';
import { sharegptProblem, SHAREGPT_TAGS, toOpenAiMessage, toOpenAiTools, toSharegptTurns, trimToLastAssistant } from './chat-formats.js';
import { appliedHookEffects, collectEpisodes, taskIdentity, type EpisodeChoice, type SourcedEpisode } from './collect-episodes.js';
import { selectDemos, type BenchmarkCounts } from './select-demos.js';

export const AGENT_SFT_VERSION = 'harness-r1-agent-sft-v1';
export const AGENT_SFT_FILES = { openai: 'agent_sft.jsonl', sharegpt: 'agent_sft_sharegpt.jsonl', datasetInfo: 'dataset_info.json', manifest: 'manifest.json' } as const;
/** The LLaMA-Factory dataset name written in `dataset_info.json`. */
export const AGENT_SFT_DATASET = 'harness_r1_agent_sft';

/** The tools a benchmark's episodes offer under a tool-calling protocol (text protocols offer none). */
export type ToolsLookup = (bench: string) => Promise<readonly ToolSpec[]>;

export interface AgentSftRequest {
  sources: readonly { name: string; artifacts: RunArtifacts }[];
  outDir: string;
  episodes: EpisodeChoice;
  /** An episode is a success when its reward is at least this (the release: 1.0). */
  minReward: number;
  tools: ToolsLookup;
}

export interface AgentSftSummary {
  schemaVersion: typeof AGENT_SFT_VERSION;
  episodes: EpisodeChoice;
  minReward: number;
  dedup: string;
  sources: { run: string; kind: RunArtifacts['kind']; episodes: number; simulatedTarget: boolean }[];
  byBenchmark: Record<string, BenchmarkCounts & { sharegptSkipped: number; protocol: 'tool_calling' | 'text' | 'mixed'; tools: string[] }>;
  totals: { read: number; kept: number; harnessed: number; noIntervention: number; duplicatesDropped: number; failures: number; infrastructureFailures: number; sharegptRows: number };
  warnings: string[];
  files: { file: string; rows: number; bytes: number }[];
}

function metadataOf(d: SourcedEpisode, protocol: 'tool_calling' | 'text'): Record<string, unknown> {
  const r = d.record;
  return {
    kind: d.kind,
    benchmark: r.task.bench,
    task_id: taskIdentity(d),
    split: r.task.split,
    task_index: r.task.index,
    reward: r.reward,
    outcome: r.outcome,
    rounds: r.rounds,
    protocol,
    source_run: d.sourceRun,
    source_run_kind: d.sourceRunKind,
    source_part: d.sourcePart,
    batch_tag: d.batchTag,
    patch_sha256: d.patchSha256,
    hook_effects_applied: appliedHookEffects(r),
    target: d.target.label,
    target_simulated: d.target.simulated,
  };
}

function jsonl(rows: readonly unknown[]): string {
  return rows.map((r) => `${JSON.stringify(r)}\n`).join('');
}

/** Builds the rows and writes the export folder. */
export async function exportAgentSft(request: AgentSftRequest): Promise<AgentSftSummary> {
  const all = request.sources.flatMap((s) => collectEpisodes(s.artifacts, s.name));
  const { demos, byBenchmark } = selectDemos(all, request.episodes, request.minReward);
  const warnings = request.sources.flatMap((s) => s.artifacts.warnings);
  const openaiRows: unknown[] = [];
  const sharegptRows: unknown[] = [];
  const extra: Record<string, { sharegptSkipped: number; protocols: Set<'tool_calling' | 'text'>; tools: string[] }> = {};
  for (const d of demos) {
    const bench = d.record.task.bench;
    // Text protocols keep a fixed preamble in the conversation and offer no tools.
    const protocol = d.record.preamble !== undefined ? 'text' : 'tool_calling';
    const tools = protocol === 'text' ? [] : await request.tools(bench);
    const info = (extra[bench] ??= { sharegptSkipped: 0, protocols: new Set(), tools: tools.map((t) => t.name) });
    info.protocols.add(protocol);
    if (info.tools.length === 0 && tools.length > 0) info.tools = tools.map((t) => t.name);
    const messages = trimToLastAssistant(d.record.messages);
    const offered = new Set(tools.map((t) => t.name));
    const unknown = [...new Set(messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.name) : [])))].filter((n) => !offered.has(n));
    if (unknown.length > 0) warnings.push(`${taskIdentity(d)} (${d.sourceRun}/${d.sourcePart}) calls ${unknown.join(', ')}, not among the ${bench} tools listed for it.`);
    const metadata = metadataOf(d, protocol);
    openaiRows.push({ messages: messages.map(toOpenAiMessage), tools: toOpenAiTools(tools), metadata });
    const turns = toSharegptTurns(messages);
    const problem = sharegptProblem(turns);
    if (problem !== null) {
      info.sharegptSkipped++;
      warnings.push(`${taskIdentity(d)} (${d.sourceRun}/${d.sourcePart}) left out of ${AGENT_SFT_FILES.sharegpt}: ${problem}.`);
      continue;
    }
    sharegptRows.push({ messages: turns, tools: tools.length === 0 ? '' : JSON.stringify(toOpenAiTools(tools).map((t) => t.function)), metadata: JSON.stringify(metadata) });
  }

  const datasetInfo = { [AGENT_SFT_DATASET]: { file_name: AGENT_SFT_FILES.sharegpt, formatting: 'sharegpt', columns: { messages: 'messages', tools: 'tools' }, tags: SHAREGPT_TAGS } };
  const outputs: [string, string, number][] = [
    [AGENT_SFT_FILES.openai, jsonl(openaiRows), openaiRows.length],
    [AGENT_SFT_FILES.sharegpt, jsonl(sharegptRows), sharegptRows.length],
    [AGENT_SFT_FILES.datasetInfo, `${JSON.stringify(datasetInfo, null, 2)}\n`, 1],
  ];
  const files = outputs.map(([file, content, rows]) => {
    writeFileAtomic(path.join(request.outDir, file), content);
    return { file, rows, bytes: Buffer.byteLength(content) };
  });

  const benchmarks = Object.fromEntries(Object.entries(byBenchmark).sort(([a], [b]) => a.localeCompare(b)).map(([bench, counts]) => {
    const info = extra[bench];
    const protocols = info ? [...info.protocols] : [];
    return [bench, { ...counts, sharegptSkipped: info?.sharegptSkipped ?? 0, protocol: protocols.length > 1 ? 'mixed' as const : (protocols[0] ?? 'tool_calling'), tools: info?.tools ?? [] }];
  }));
  const sum = (f: (c: BenchmarkCounts) => number) => Object.values(byBenchmark).reduce((a, c) => a + f(c), 0);
  const summary: AgentSftSummary = {
    schemaVersion: AGENT_SFT_VERSION,
    episodes: request.episodes,
    minReward: request.minReward,
    dedup: 'one episode per benchmark and task identity: highest reward, then success, then fewest messages; ties keep the first read',
    sources: request.sources.map((s) => ({
      run: s.name,
      kind: s.artifacts.kind,
      episodes: collectEpisodes(s.artifacts, s.name).length,
      simulatedTarget: s.artifacts.kind === 'run' ? s.artifacts.run.manifest.target.simulated : s.artifacts.summary.target.simulated,
    })),
    byBenchmark: benchmarks,
    totals: {
      read: sum((c) => c.read), kept: demos.length, harnessed: sum((c) => c.keptByKind.harnessed), noIntervention: sum((c) => c.keptByKind.no_intervention),
      duplicatesDropped: sum((c) => c.duplicatesDropped), failures: sum((c) => c.failures), infrastructureFailures: sum((c) => c.infrastructureFailures), sharegptRows: sharegptRows.length,
    },
    warnings,
    files,
  };
  const manifest = `${JSON.stringify(summary, null, 2)}\n`;
  writeFileAtomic(path.join(request.outDir, AGENT_SFT_FILES.manifest), manifest);
  summary.files.push({ file: AGENT_SFT_FILES.manifest, rows: 1, bytes: Buffer.byteLength(manifest) });
  return summary;
}

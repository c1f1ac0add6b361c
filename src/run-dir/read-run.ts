import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import { ConfigError, READABLE_EPISODE_RECORD_VERSIONS, readEpisodeRecord, supersedes, type ChatMessage, type EpisodeRecord } from '../episode/index.js';
import type { EngineerResult } from '../engineer/engineer.js';
import { EVAL_STATUSES } from '../episode/eval-status.js';
import { BATCH_FILES, IMPROVE_LAYOUT, ImproveRunDir } from './improve-run-dir.js';
import { BATCH_RESULT_VERSION, IMPROVE_SUMMARY_VERSION, PACKET_ARTIFACT_VERSION, type BatchMetadata, type BatchResult, type ImproveSummary, type PacketArtifact } from './batch-artifacts.js';
import type { HarnessPatch, PatchVerdict } from '../patch/index.js';
import { RUN_MANIFEST_VERSION, type RunManifest } from '../store/run-manifest.js';

/** What was wrong with an artifact file. */
export type ArtifactProblem = 'missing' | 'unreadable' | 'invalid_json' | 'unsupported_version' | 'invalid_shape';

/**
 * A run directory's artifact is missing, unreadable, not JSON, of an unknown version, or not shaped like the
 * artifact it should be. It is a `ConfigError` (the user pointed the report at a broken run, exit 2) and
 * names the file, relative to the run directory when it is inside it.
 */
export class RunArtifactError extends ConfigError {
  readonly file: string;
  readonly problem: ArtifactProblem;
  constructor(options: { file: string; problem: ArtifactProblem; message: string; cause?: unknown }) {
    super({ message: `${options.file}: ${options.message}`, field: 'run', ...(options.cause !== undefined ? { cause: options.cause } : {}) });
    this.file = options.file;
    this.problem = options.problem;
  }
}

/** One RunStore directory as stored: its manifest and the final record of each task, in task order. */
export interface StoredRun {
  /** Path relative to the report's run directory (`baseline`, `reruns/<key>`, or `.` for a plain run). */
  dir: string;
  manifest: RunManifest;
  records: EpisodeRecord[];
  /** True when the last line of `episodes.jsonl` was torn by a crash (it is left out, as the store would). */
  tornTail: boolean;
}

export type { BatchMetadata };

/** Everything stored about one batch of an improve run; files a batch never reached are null. */
export interface BatchArtifacts {
  tag: string;
  result: BatchResult;
  metadata: BatchMetadata | null;
  engineer: EngineerResult | null;
  prompt: ChatMessage[] | null;
  rawResponse: string | null;
  /** The failure packet the engineer saw (absent in runs made before packets were stored). */
  packet: PacketArtifact | null;
  verdict: PatchVerdict | null;
  patch: HarnessPatch | null;
  /** The patched rerun named by `result.rerun.cacheKey`. */
  rerun: StoredRun | null;
}

export type RunArtifacts =
  | { kind: 'improve'; name: string; summary: ImproveSummary; baseline: StoredRun; batches: BatchArtifacts[]; warnings: string[] }
  | { kind: 'run'; name: string; run: StoredRun; warnings: string[] };

/** A name that is safe to use as one path segment (batch tags, cache keys). */
const SEGMENT = /^[A-Za-z0-9_.-]+$/;

/**
 * Reads the stored artifacts of an `improve` run directory (layout: `improve-run-dir.ts`) (`summary.json`, `baseline/`, `batches/<tag>/`,
 * `reruns/<key>/`) or of a plain `run` directory (`run.json`, `episodes.jsonl`). It only reads: nothing in
 * the directory is created, repaired or re-indexed, and no episode is played.
 */
export function loadRunArtifacts(runDir: string): RunArtifacts {
  const root = path.resolve(runDir);
  if (!existsSync(root)) throw new ConfigError({ message: `Run directory not found: ${runDir}`, field: 'run' });
  if (!statSync(root).isDirectory()) throw new ConfigError({ message: `${runDir} is not a directory; pass a run directory.`, field: 'run' });
  const reader = new ArtifactReader(root);
  const name = path.basename(root);
  if (ImproveRunDir.holdsImproveRun(root)) return loadImprove(reader, name);
  if (existsSync(path.join(root, 'run.json'))) {
    const run = reader.storedRun('.');
    return { kind: 'run', name, run, warnings: reader.warnings };
  }
  throw new ConfigError({
    message: `${runDir} holds no run: expected summary.json (an improve run directory) or run.json (a run directory).`,
    field: 'run',
  });
}

function loadImprove(reader: ArtifactReader, name: string): RunArtifacts {
  if (!reader.has(IMPROVE_LAYOUT.summary)) {
    reader.fail(IMPROVE_LAYOUT.summary, 'is missing: the improve run has not finished. Run the same improve command with the same --run-dir to resume it.', 'missing');
  }
  const summary = reader.json(IMPROVE_LAYOUT.summary, checkSummary);
  const baseline = reader.storedRun(IMPROVE_LAYOUT.baseline);
  const batches = summary.batches.map((b) => loadBatch(reader, b.tag));
  return { kind: 'improve', name, summary, baseline, batches, warnings: reader.warnings };
}

function loadBatch(reader: ArtifactReader, tag: string): BatchArtifacts {
  const dir = `${IMPROVE_LAYOUT.batches}/${tag}`;
  const result = reader.json(`${dir}/${BATCH_FILES.result}`, (v, fail) => checkBatchResult(v, fail, tag));
  let rerun: StoredRun | null = null;
  if (result.rerun) rerun = reader.storedRun(`${IMPROVE_LAYOUT.reruns}/${result.rerun.cacheKey}`);
  return {
    tag,
    result,
    metadata: reader.optionalJson(`${dir}/${BATCH_FILES.metadata}`, (v, fail) => {
      need(isObject(v) && typeof v.targetSimulated === 'boolean', fail, 'expected batch metadata with targetSimulated');
      return v as unknown as BatchMetadata;
    }),
    engineer: reader.optionalJson(`${dir}/${BATCH_FILES.engineer}`, (v, fail) => {
      need(isObject(v) && (v.status === 'ok' || v.status === 'request_failed'), fail, "expected an engineer result with status 'ok' or 'request_failed'");
      return v as unknown as EngineerResult;
    }),
    prompt: reader.optionalJson(`${dir}/${BATCH_FILES.prompt}`, (v, fail) => {
      need(Array.isArray(v) && v.every((m) => isObject(m) && typeof m.role === 'string'), fail, 'expected a list of chat messages');
      return v as ChatMessage[];
    }),
    rawResponse: reader.optionalText(`${dir}/${BATCH_FILES.rawResponse}`),
    packet: reader.optionalJson(`${dir}/${BATCH_FILES.packet}`, (v, fail) => {
      need(isObject(v), fail, 'expected a failure packet object');
      checkVersion(v, PACKET_ARTIFACT_VERSION, fail);
      need(typeof v.text === 'string' && typeof v.format === 'string' && isObject(v.stats), fail, 'a packet has format, text and stats');
      return v as unknown as PacketArtifact;
    }),
    verdict: reader.optionalJson(`${dir}/${BATCH_FILES.verdict}`, (v, fail) => {
      need(isObject(v) && (v.kind === 'valid' || v.kind === 'invalid') && Array.isArray(v.notes), fail, "expected a verdict of kind 'valid' or 'invalid'");
      need(v.kind === 'valid' ? isPatch(v.patch) : isObject(v.rejection), fail, 'the verdict lacks its patch or rejection');
      return v as unknown as PatchVerdict;
    }),
    patch: reader.optionalJson(`${dir}/${BATCH_FILES.patch}`, (v, fail) => {
      need(isPatch(v), fail, 'expected a normalized patch with an actions list');
      return v as unknown as HarnessPatch;
    }),
    rerun,
  };
}

type Fail = (message: string, problem?: ArtifactProblem) => never;
type Check<T> = (value: unknown, fail: Fail) => T;

class ArtifactReader {
  readonly warnings: string[] = [];
  constructor(private readonly root: string) {}

  /** Path shown in messages: relative to the run directory, which is how people find it. */
  private display(rel: string): string {
    return path.join(path.basename(this.root), rel);
  }

  has(rel: string): boolean {
    return existsSync(this.abs(rel));
  }

  fail(rel: string, message: string, problem: ArtifactProblem): never {
    return this.failer(rel)(message, problem);
  }

  private failer(rel: string): Fail {
    return (message, problem = 'invalid_shape') => {
      throw new RunArtifactError({ file: this.display(rel), problem, message });
    };
  }

  private abs(rel: string): string {
    for (const segment of rel.split('/')) {
      if (segment !== '.' && !SEGMENT.test(segment)) this.failer(rel)(`'${segment}' is not a valid artifact name`);
    }
    return path.join(this.root, rel);
  }

  text(rel: string): string {
    const file = this.abs(rel);
    if (!existsSync(file)) this.failer(rel)('is missing', 'missing');
    try {
      return readFileSync(file, 'utf8');
    } catch (cause) {
      throw new RunArtifactError({ file: this.display(rel), problem: 'unreadable', message: `cannot be read (${String(cause)})`, cause });
    }
  }

  optionalText(rel: string): string | null {
    return existsSync(this.abs(rel)) ? this.text(rel) : null;
  }

  json<T>(rel: string, check: Check<T>): T {
    const text = this.text(rel);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (cause) {
      throw new RunArtifactError({ file: this.display(rel), problem: 'invalid_json', message: `is not valid JSON (${cause instanceof Error ? cause.message : String(cause)})`, cause });
    }
    return check(value, this.failer(rel));
  }

  optionalJson<T>(rel: string, check: Check<T>): T | null {
    return existsSync(this.abs(rel)) ? this.json(rel, check) : null;
  }

  /** A RunStore directory, read the way `RunStore` reads it but without repairing or indexing anything. */
  storedRun(rel: string): StoredRun {
    const manifest = this.json(rel === '.' ? 'run.json' : `${rel}/run.json`, checkManifest);
    const episodesRel = rel === '.' ? 'episodes.jsonl' : `${rel}/episodes.jsonl`;
    const text = this.text(episodesRel);
    const fail = this.failer(episodesRel);
    const lines = text.split('\n');
    const done = new Map<number, EpisodeRecord>();
    const seen = new Map<number, number>();
    let tornTail = false;
    lines.forEach((line, i) => {
      if (line.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        // Only an unterminated last line can be a crash's torn write; anything else is corruption.
        if (i === lines.length - 1) {
          tornTail = true;
          this.warnings.push(`${this.display(episodesRel)}: the last line was cut off by a crash and is left out.`);
          return;
        }
        fail(`line ${i + 1} is not valid JSON`, 'invalid_json');
      }
      const checked = checkEpisode(value, (message, problem) => fail(`line ${i + 1}: ${message}`, problem));
      // Version-1 records have no attempt: it is their position among the task's records.
      const before = seen.get(checked.task.index) ?? 0;
      seen.set(checked.task.index, before + 1);
      const record = readEpisodeRecord(checked as unknown as Record<string, unknown>, before);
      if (supersedes(done.get(record.task.index))) done.set(record.task.index, record);
    });
    return { dir: rel, manifest, records: [...done.values()].sort((a, b) => a.task.index - b.task.index), tornTail };
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNumberList(value: unknown): value is number[] {
  return Array.isArray(value) && value.every((n) => typeof n === 'number');
}

function isPatch(value: unknown): boolean {
  return isObject(value) && Array.isArray(value.actions) && value.actions.every((a) => isObject(a) && typeof a.type === 'string');
}

function need(condition: boolean, fail: Fail, message: string): asserts condition {
  if (!condition) fail(message);
}

function checkVersion(value: Record<string, unknown>, expected: number | string, fail: Fail): void {
  if (value.schemaVersion !== expected) {
    fail(`schema version ${JSON.stringify(value.schemaVersion)} is not supported (expected ${JSON.stringify(expected)})`, 'unsupported_version');
  }
}

function checkSummary(v: unknown, fail: Fail): ImproveSummary {
  need(isObject(v), fail, 'expected an improve summary object');
  checkVersion(v, IMPROVE_SUMMARY_VERSION, fail);
  need(typeof v.bench === 'string' && typeof v.split === 'string', fail, 'bench and split must be strings');
  need(isObject(v.target) && typeof v.target.label === 'string' && typeof v.target.simulated === 'boolean', fail, 'target must be { label, simulated }');
  need(isObject(v.engineer) && typeof v.engineer.label === 'string' && typeof v.engineer.symbolic === 'boolean', fail, 'engineer must be { label, symbolic }');
  need(Array.isArray(v.batches), fail, 'batches must be a list');
  for (const [i, b] of v.batches.entries()) {
    need(isObject(b) && typeof b.tag === 'string' && SEGMENT.test(b.tag), fail, `batches[${i}].tag must be a batch name`);
    need(typeof b.status === 'string' && typeof b.baselinePass === 'number' && typeof b.score === 'number', fail, `batches[${i}] lacks status, baselinePass or score`);
  }
  const t = v.totals;
  need(isObject(t), fail, 'totals must be an object');
  for (const key of ['batches', 'scored', 'meanScore', 'baselinePass', 'patchedPass', 'tasks', 'missingEvaluations'] as const) {
    need(typeof t[key] === 'number', fail, `totals.${key} must be a number`);
  }
  return v as unknown as ImproveSummary;
}

function checkBatchResult(v: unknown, fail: Fail, tag: string): BatchResult {
  need(isObject(v), fail, 'expected a batch result object');
  checkVersion(v, BATCH_RESULT_VERSION, fail);
  need(v.batchTag === tag, fail, `batchTag is ${JSON.stringify(v.batchTag)}, expected '${tag}'`);
  need(typeof v.status === 'string' && (EVAL_STATUSES as readonly string[]).includes(v.status), fail, `unknown status ${JSON.stringify(v.status)}`);
  need(isNumberList(v.taskIndices) && isNumberList(v.excludedTasks), fail, 'taskIndices and excludedTasks must be lists of numbers');
  need(isObject(v.baseline) && typeof v.baseline.pass === 'number' && isObject(v.baseline.rewards), fail, 'baseline must be { pass, rewards }');
  need(v.patched === null || (isObject(v.patched) && typeof v.patched.pass === 'number' && isObject(v.patched.rewards)), fail, 'patched must be null or { pass, rewards }');
  need(isObject(v.reward) && typeof v.reward.score === 'number' && typeof v.reward.metric === 'string', fail, 'reward must be { score, metric, raw }');
  const raw = v.reward.raw;
  need(raw === null || raw === undefined || (isObject(raw) && isNumberList(raw.rescued) && isNumberList(raw.regressed)), fail, 'reward.raw must be null or a batch reward with rescued and regressed lists');
  need(isObject(v.hookEffects) && typeof v.hookFaults === 'number', fail, 'hookEffects must be an object and hookFaults a number');
  need(isObject(v.engineer) && typeof v.engineer.label === 'string', fail, 'engineer must be { label, symbolic }');
  need(v.rerun === null || (isObject(v.rerun) && typeof v.rerun.cacheKey === 'string' && SEGMENT.test(v.rerun.cacheKey)), fail, 'rerun must be null or name a rerun cache key');
  need(Array.isArray(v.notes) && v.notes.every((n) => typeof n === 'string'), fail, 'notes must be a list of strings');
  return v as unknown as BatchResult;
}

function checkManifest(v: unknown, fail: Fail): RunManifest {
  need(isObject(v), fail, 'expected a run manifest object');
  checkVersion(v, RUN_MANIFEST_VERSION, fail);
  need(typeof v.bench === 'string' && typeof v.split === 'string' && typeof v.runId === 'string', fail, 'runId, bench and split must be strings');
  need(isNumberList(v.taskIndices), fail, 'taskIndices must be a list of numbers');
  need(isObject(v.target) && typeof v.target.label === 'string' && typeof v.target.simulated === 'boolean', fail, 'target must be { spec, label, simulated }');
  need(v.patch === null || (isObject(v.patch) && typeof v.patch.file === 'string'), fail, 'patch must be null or { file, sha256 }');
  need(isObject(v.options), fail, 'options must be an object');
  return v as unknown as RunManifest;
}

function checkEpisode(v: unknown, fail: Fail): EpisodeRecord {
  need(isObject(v), fail, 'expected an episode record');
  if (!READABLE_EPISODE_RECORD_VERSIONS.includes(v.schemaVersion as number)) {
    fail(`schema version ${JSON.stringify(v.schemaVersion)} is not supported (expected one of ${READABLE_EPISODE_RECORD_VERSIONS.join(', ')})`, 'unsupported_version');
  }
  need(isObject(v.task) && typeof v.task.index === 'number', fail, 'task.index must be a number');
  need(v.schemaVersion === 1 || (Number.isInteger(v.attempt) && (v.attempt as number) >= 1), fail, 'attempt must be a positive integer');
  need(typeof v.outcome === 'string' && typeof v.reward === 'number' && typeof v.rounds === 'number', fail, 'outcome, reward and rounds are required');
  need(isObject(v.detail), fail, 'detail must be an object');
  need(Array.isArray(v.steps) && v.steps.every((s) => isObject(s) && typeof s.tool === 'string'), fail, 'steps must be a list of steps');
  need(Array.isArray(v.hookTrace) && v.hookTrace.every((h) => isObject(h) && typeof h.hook === 'string'), fail, 'hookTrace must be a list of hook calls');
  need(Array.isArray(v.messages) && v.messages.every((m) => isObject(m) && typeof m.role === 'string'), fail, 'messages must be a list of chat messages');
  return v as unknown as EpisodeRecord;
}

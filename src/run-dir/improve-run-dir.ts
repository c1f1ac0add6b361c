/**
 * The owner of an improve run directory's layout. Every path of it is named here, and every artifact is
 * written and read through a typed method, atomically (temp file + rename), so the loop that writes a run,
 * the report that reads it and the exporters that build datasets from it agree on one schema:
 *
 * ```
 * <run>/baseline/                 the no-harness baseline (a run store: run.json, episodes.jsonl, …)
 * <run>/batches/<tag>/            one folder per batch, a file per stage:
 *     metadata.json               the batch and its settings, written before the engineer is asked
 *     packet.json                 the failure packet built from the baseline episodes
 *     prompt.json                 the prompt sent (LLM engineers)
 *     raw_response.txt            the answer as returned (LLM engineers)
 *     engineer.json               the engineer's result (kept, so a resumed run never asks twice)
 *     verdict.json, patch.json    the validator's verdict, and the normalized patch when valid
 *     result.json                 the batch's result: status, credited reward, rerun
 * <run>/reruns/<cache key>/       a patched rerun (a run store), shared by identical patches of a batch
 * <run>/patches/<tag>/<bench>.json `--generate-only`: each valid patch, in the layout `--patch-source` reads
 * <run>/improve.json              the run's identity: every setting that changes its results
 * <run>/summary.json              one row per batch and the totals
 * <run>/report.html               the HTML report
 * ```
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

import { ConfigError, type ChatMessage } from '../episode/index.js';
import type { EngineerResult } from '../engineer/engineer.js';
import type { FailurePacket } from '../engineer/failure-packet.js';
import type { HarnessPatch, PatchVerdict } from '../patch/index.js';
import { readJsonArtifact, readTextArtifact, writeArtifact, writeJsonArtifact } from './artifact-file.js';
import { checkSameIdentity, type ImproveIdentity } from './run-identity.js';
import { patchSourceFile } from '../engineer/patch-source-dir.js';
import { PACKET_ARTIFACT_VERSION, type BatchMetadata, type BatchResult, type ImproveSummary, type PacketArtifact } from './batch-artifacts.js';

/** Names of the run directory's parts. */
export const IMPROVE_LAYOUT = {
  baseline: 'baseline',
  batches: 'batches',
  reruns: 'reruns',
  patches: 'patches',
  identity: 'improve.json',
  summary: 'summary.json',
  report: 'report.html',
} as const;

/** Names of a batch folder's stage files. */
export const BATCH_FILES = {
  metadata: 'metadata.json',
  packet: 'packet.json',
  prompt: 'prompt.json',
  rawResponse: 'raw_response.txt',
  engineer: 'engineer.json',
  verdict: 'verdict.json',
  patch: 'patch.json',
  result: 'result.json',
} as const;

/** The stage files of one batch. */
export class BatchDir {
  constructor(readonly dir: string) {}

  file(name: keyof typeof BATCH_FILES): string {
    return path.join(this.dir, BATCH_FILES[name]);
  }

  readResult(): BatchResult | undefined {
    return readJsonArtifact<BatchResult>(this.file('result'));
  }
  writeResult(result: BatchResult): void {
    writeJsonArtifact(this.file('result'), result);
  }
  writeMetadata(metadata: BatchMetadata): void {
    writeJsonArtifact(this.file('metadata'), metadata);
  }
  readMetadata(): BatchMetadata | undefined {
    return readJsonArtifact<BatchMetadata>(this.file('metadata'));
  }
  readEngineer(): EngineerResult | undefined {
    return readJsonArtifact<EngineerResult>(this.file('engineer'));
  }
  writeEngineer(result: EngineerResult): void {
    writeJsonArtifact(this.file('engineer'), result);
  }
  writePrompt(prompt: ChatMessage[]): void {
    writeJsonArtifact(this.file('prompt'), prompt);
  }
  readPrompt(): ChatMessage[] | undefined {
    return readJsonArtifact<ChatMessage[]>(this.file('prompt'));
  }
  writeRawResponse(text: string): void {
    writeArtifact(this.file('rawResponse'), text);
  }
  readRawResponse(): string | undefined {
    return readTextArtifact(this.file('rawResponse'));
  }
  writePacket(packet: FailurePacket): void {
    const artifact: PacketArtifact = { schemaVersion: PACKET_ARTIFACT_VERSION, ...packet };
    writeJsonArtifact(this.file('packet'), artifact);
  }
  /** The stored packet; undefined when absent or of another version (runs made before packets were stored). */
  readPacket(): PacketArtifact | undefined {
    const artifact = readJsonArtifact<PacketArtifact>(this.file('packet'));
    return artifact?.schemaVersion === PACKET_ARTIFACT_VERSION ? artifact : undefined;
  }
  writeVerdict(verdict: PatchVerdict): void {
    writeJsonArtifact(this.file('verdict'), verdict);
  }
  readVerdict(): PatchVerdict | undefined {
    return readJsonArtifact<PatchVerdict>(this.file('verdict'));
  }
  writePatch(patch: HarnessPatch): void {
    writeJsonArtifact(this.file('patch'), patch);
  }
  readPatch(): HarnessPatch | undefined {
    return readJsonArtifact<HarnessPatch>(this.file('patch'));
  }
}

/** An improve run directory: its parts by name. */
export class ImproveRunDir {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  get baselineDir(): string {
    return path.join(this.root, IMPROVE_LAYOUT.baseline);
  }

  get summaryFile(): string {
    return path.join(this.root, IMPROVE_LAYOUT.summary);
  }

  get reportFile(): string {
    return path.join(this.root, IMPROVE_LAYOUT.report);
  }

  batch(tag: string): BatchDir {
    return new BatchDir(path.join(this.root, IMPROVE_LAYOUT.batches, tag));
  }

  rerunDir(cacheKey: string): string {
    return path.join(this.root, IMPROVE_LAYOUT.reruns, cacheKey);
  }

  /** Where `--generate-only` writes its patches: a folder `--patch-source` reads. */
  get patchesDir(): string {
    return path.join(this.root, IMPROVE_LAYOUT.patches);
  }

  /** A generate-only run's patch of one batch, `<run>/patches/<tag>/<bench>.json`. */
  writeGeneratedPatch(tag: string, bench: string, patch: HarnessPatch): void {
    writeJsonArtifact(patchSourceFile(this.patchesDir, tag, bench), patch);
  }

  /** The batch tags that have a folder, in name order. */
  batchTags(): string[] {
    const dir = path.join(this.root, IMPROVE_LAYOUT.batches);
    return existsSync(dir) ? readdirSync(dir).sort() : [];
  }

  get identityFile(): string {
    return path.join(this.root, IMPROVE_LAYOUT.identity);
  }

  readIdentity(): ImproveIdentity | undefined {
    return readJsonArtifact<ImproveIdentity>(this.identityFile);
  }

  /**
   * Records the run's identity, or checks it against the stored one: a run directory is continued only
   * with the settings it was started with (a ConfigError lists every difference). A run made before
   * identities were stored, with batches already decided, is refused as well: what it was run with is unknown.
   */
  claimIdentity(identity: ImproveIdentity): void {
    const stored = this.readIdentity();
    if (stored) return checkSameIdentity(this.root, stored, identity);
    if (this.batchTags().length > 0) {
      throw new ConfigError({ message: `Cannot continue ${this.root}: it holds batches but no improve.json, so the settings they were made with are unknown. Pass --new to start a new run directory, or choose another --run-dir.`, field: 'runDir' });
    }
    writeJsonArtifact(this.identityFile, identity);
  }

  readSummary(): ImproveSummary | undefined {
    return readJsonArtifact<ImproveSummary>(this.summaryFile);
  }

  writeSummary(summary: ImproveSummary): void {
    writeJsonArtifact(this.summaryFile, summary);
  }

  /** Whether the folder holds an improve run (its summary, or batches of an unfinished one). */
  static holdsImproveRun(root: string): boolean {
    return existsSync(path.join(root, IMPROVE_LAYOUT.summary)) || existsSync(path.join(root, IMPROVE_LAYOUT.batches));
  }
}

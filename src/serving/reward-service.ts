import { isHarnessError, type ConfigError } from '../episode/index.js';
import { judgeProposal } from '../evaluation/improve/judge-proposal.js';
import { responseTextResult } from '../engineer/response-text-result.js';
import type { ResponseProtocol } from '../patch/index.js';
import { RowContextMismatch } from '../training/rows/row-context.js';
import type { RlRowMetadata } from '../training/rows/rl-row.js';
import { evalKeyOf, responseKeyOf } from './eval-key.js';
import { JobStore } from './job-store.js';
import type { PreparedRow, PrepareRow } from './prepared-row.js';
import { failedReward, finishedReward, type FinishedReward, type RewardResult } from './reward-result.js';
import type { CatalogRow, RowCatalog } from './row-catalog.js';
import { ServiceMetrics } from './service-metrics.js';

export interface RewardServiceOptions {
  catalog: RowCatalog;
  prepare: PrepareRow;
  /** The folder of the job table and the reruns. */
  storeDir: string;
  /** The target every row is rewarded with; default each row's own `target_spec`. */
  target?: string;
  /** Evaluations at once per target. */
  concurrency: number;
  /** Jobs waiting for a slot (all targets) beyond which new jobs are refused. */
  queueDepth: number;
  log?: (line: string) => void;
}

/** A request the service refused, as the HTTP layer answers it. */
export interface Refusal {
  kind: 'refused';
  httpStatus: 409 | 422 | 429;
  code: 'row_context_mismatch' | 'unknown_row' | 'bad_request' | 'queue_full';
  message: string;
  fields?: string[];
  retryAfterSeconds?: number;
}

export type Submitted = { kind: 'accepted'; evalKey: string; cached: boolean } | Refusal;

interface Job {
  evalKey: string;
  entry: CatalogRow;
  response: string;
  state: 'queued' | 'running';
  /** Settles with the reward, or null when the service stopped before the job finished (it stays queued in the store). */
  finished: Promise<FinishedReward | null>;
  resolve(result: FinishedReward | null): void;
}

/**
 * The reward service: RL row + engineer response → the reward `improve` would credit, through the same
 * reward path (`judgeProposal`). Jobs are keyed by their evaluation key, so the same row and response (or
 * another response with the same patch) is evaluated once; identical jobs in flight share one evaluation;
 * every finished result is persisted and served again without a rerun, across restarts.
 */
export class RewardService {
  readonly metrics = new ServiceMetrics();
  private readonly store: JobStore;
  private readonly jobs = new Map<string, Job>();
  private readonly waiting = new Map<string, Job[]>();
  private readonly runningPerTarget = new Map<string, number>();
  private readonly prepared = new Map<string, Promise<PreparedRow>>();
  private readonly evalKeys = new Map<string, Promise<{ evalKey: string; rerun: boolean }>>();
  /** Jobs whose reward path failed in this process: answered as missing evaluations, tried again when asked again. */
  private readonly failed = new Map<string, FinishedReward>();
  private readonly controller = new AbortController();
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly o: RewardServiceOptions) {
    this.store = new JobStore(o.storeDir);
    for (const stored of this.store.unfinished()) {
      const entry = o.catalog.get(stored.rowKey);
      if (!entry) {
        o.log?.(`job ${stored.evalKey}: its row ${stored.rowKey} is not among the rows served; left queued`);
        continue;
      }
      this.enqueue(this.newJob(stored.evalKey, entry, stored.response));
    }
    if (this.jobs.size > 0) o.log?.(`${this.jobs.size} job(s) left unfinished by the previous run queued again`);
  }

  targetOf(entry: CatalogRow): string {
    return this.o.target ?? entry.row.metadata.target_spec;
  }

  get queued(): number {
    return [...this.waiting.values()].reduce((n, list) => n + list.length, 0);
  }

  get inFlight(): number {
    return [...this.runningPerTarget.values()].reduce((a, b) => a + b, 0);
  }

  get stopping(): boolean {
    return this.controller.signal.aborted;
  }

  /** Takes one item: finds its row, keys it, and answers from the store, joins a job in flight, or starts one. */
  async submit(metadata: RlRowMetadata, response: string): Promise<Submitted> {
    this.metrics.requests++;
    const found = this.o.catalog.lookup(metadata);
    if (found.kind === 'unknown') return { kind: 'refused', httpStatus: 422, code: 'unknown_row', message: `No row ${found.key} (benchmark/batch_tag/prompt_sha256) among the rows served.` };
    if (found.kind === 'mismatch') {
      return { kind: 'refused', httpStatus: 409, code: 'row_context_mismatch', fields: found.fields, message: `Row ${found.entry.key}: the metadata sent differs from the exported row in ${found.fields.join(', ')}.` };
    }
    const { entry } = found;
    let prepared: PreparedRow;
    try {
      prepared = await this.prepareRow(entry);
    } catch (error) {
      if (error instanceof RowContextMismatch) return { kind: 'refused', httpStatus: 409, code: 'row_context_mismatch', fields: error.mismatches.map((m) => m.field), message: error.message };
      if (isHarnessError(error) && error.code === 'config_error') return { kind: 'refused', httpStatus: 409, code: 'row_context_mismatch', fields: [(error as ConfigError).field ?? 'row'], message: error.message };
      throw error;
    }
    const responseKey = responseKeyOf(entry.key, response);
    const known = this.store.evalKeyOfResponse(responseKey);
    if (known !== undefined) {
      const stored = this.store.get(known);
      if (stored?.state === 'done') return this.hit(known);
      if (this.jobs.has(known)) return this.join(known);
    }
    let keying = this.evalKeys.get(responseKey);
    if (!keying) {
      keying = evalKeyOf(prepared, response);
      this.evalKeys.set(responseKey, keying);
    }
    let key: { evalKey: string; rerun: boolean };
    try {
      key = await keying;
    } finally {
      this.evalKeys.delete(responseKey);
    }
    this.store.putResponseKey(responseKey, key.evalKey);
    if (this.store.get(key.evalKey)?.state === 'done') return this.hit(key.evalKey);
    if (this.jobs.has(key.evalKey)) return this.join(key.evalKey);
    this.failed.delete(key.evalKey);
    const job = this.newJob(key.evalKey, entry, response);
    if (!key.rerun) {
      // Nothing to play: decided at once, outside the queue.
      this.metrics.cacheMisses++;
      this.store.addQueued(job.evalKey, entry.key, response);
      this.track(this.evaluate(job));
      return { kind: 'accepted', evalKey: job.evalKey, cached: false };
    }
    if (this.queued >= this.o.queueDepth) {
      this.jobs.delete(job.evalKey);
      this.metrics.rejectedQueueFull++;
      return { kind: 'refused', httpStatus: 429, code: 'queue_full', message: `The queue is full (${this.queued} jobs waiting, --queue-depth ${this.o.queueDepth}); try again later.`, retryAfterSeconds: this.retryAfter() };
    }
    this.metrics.cacheMisses++;
    this.store.addQueued(job.evalKey, entry.key, response);
    this.enqueue(job);
    return { kind: 'accepted', evalKey: job.evalKey, cached: false };
  }

  /** The answer for a job: done (from the store or this process's failures), or its state while it runs. */
  result(evalKey: string, cached: boolean): RewardResult | undefined {
    const base = { job_id: evalKey, eval_key: evalKey };
    const failure = this.failed.get(evalKey);
    if (failure) return { ...base, state: 'done', ...failure, cached: false };
    const job = this.jobs.get(evalKey);
    if (job) return { ...base, state: job.state };
    const stored = this.store.get(evalKey);
    if (!stored) return undefined;
    if (stored.state !== 'done' || !stored.result) return { ...base, state: stored.state };
    return { ...base, state: 'done', ...stored.result, cached };
  }

  /** Waits up to `ms` for a job to finish, then answers its state. */
  async wait(evalKey: string, ms: number, cached: boolean): Promise<RewardResult | undefined> {
    const job = this.jobs.get(evalKey);
    if (job && ms > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([job.finished, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
      clearTimeout(timer);
    }
    return this.result(evalKey, cached);
  }

  /** Stops: no new evaluation starts, the running ones finish their episodes in flight and stay queued in the store. */
  async shutdown(): Promise<void> {
    this.controller.abort();
    for (const list of this.waiting.values()) for (const job of list.splice(0)) job.resolve(null);
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
    this.store.close();
  }

  health() {
    return { ok: !this.stopping, queued: this.queued, running: this.inFlight, rows: this.o.catalog.size };
  }

  renderMetrics(): string {
    return this.metrics.render({ queued: this.queued, running: this.inFlight, done: this.store.doneCount() });
  }

  private hit(evalKey: string): Submitted {
    this.metrics.cacheHits++;
    return { kind: 'accepted', evalKey, cached: true };
  }

  private join(evalKey: string): Submitted {
    this.metrics.inflightJoins++;
    return { kind: 'accepted', evalKey, cached: false };
  }

  private prepareRow(entry: CatalogRow): Promise<PreparedRow> {
    let p = this.prepared.get(entry.key);
    if (!p) {
      p = this.o.prepare(entry);
      this.prepared.set(entry.key, p);
      // A row refused for its context stays refused; any other failure is tried again next time.
      p.catch((error: unknown) => {
        if (!(isHarnessError(error) && error.code === 'config_error')) this.prepared.delete(entry.key);
      });
    }
    return p;
  }

  private newJob(evalKey: string, entry: CatalogRow, response: string): Job {
    let resolve!: (r: FinishedReward | null) => void;
    const finished = new Promise<FinishedReward | null>((r) => (resolve = r));
    const job: Job = { evalKey, entry, response, state: 'queued', finished, resolve };
    this.jobs.set(evalKey, job);
    return job;
  }

  private enqueue(job: Job): void {
    const target = this.targetOf(job.entry);
    const list = this.waiting.get(target) ?? [];
    list.push(job);
    this.waiting.set(target, list);
    this.pump(target);
  }

  private pump(target: string): void {
    const list = this.waiting.get(target) ?? [];
    while (!this.stopping && list.length > 0 && (this.runningPerTarget.get(target) ?? 0) < this.o.concurrency) {
      const job = list.shift()!;
      this.runningPerTarget.set(target, (this.runningPerTarget.get(target) ?? 0) + 1);
      this.track(
        this.evaluate(job).finally(() => {
          this.runningPerTarget.set(target, (this.runningPerTarget.get(target) ?? 1) - 1);
          this.pump(target);
        }),
      );
    }
  }

  private track(p: Promise<void>): void {
    this.running.add(p);
    void p.finally(() => this.running.delete(p));
  }

  /** One job through the reward path of improve; the result is stored before anyone is answered. */
  private async evaluate(job: Job): Promise<void> {
    job.state = 'running';
    this.store.setState(job.evalKey, 'running');
    const started = performance.now();
    let baselinePass = 0;
    try {
      const prepared = await this.prepareRow(job.entry);
      baselinePass = prepared.baselinePass;
      let result: FinishedReward;
      let rerunSeconds: number | null = null;
      if (prepared.untouched) result = finishedReward(prepared.untouched, baselinePass, null);
      else {
        const proposal = responseTextResult(job.response, prepared.entry.row.metadata.response_protocol as ResponseProtocol);
        const judged = await judgeProposal({ ...prepared.ctx, signal: this.controller.signal }, prepared.batch, proposal);
        result = finishedReward(judged.decision, baselinePass, judged.rejection);
        if (judged.rerun && !judged.rerun.cacheHit) {
          rerunSeconds = (performance.now() - started) / 1000;
          this.metrics.reruns++;
          this.metrics.rerunSeconds(rerunSeconds);
        }
      }
      this.store.finish(job.evalKey, result, rerunSeconds);
      this.metrics.status(result.status);
      this.jobs.delete(job.evalKey);
      job.resolve(result);
    } catch (error) {
      this.jobs.delete(job.evalKey);
      if (isHarnessError(error) && error.code === 'interrupted') {
        this.store.setState(job.evalKey, 'queued');
        job.resolve(null);
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      this.o.log?.(`job ${job.evalKey}: the reward path failed: ${message}`);
      this.metrics.jobErrors++;
      this.store.remove(job.evalKey);
      const failure = failedReward(baselinePass, message);
      this.failed.set(job.evalKey, failure);
      job.resolve(failure);
    }
  }

  private retryAfter(): number {
    const p50 = this.metrics.quantile(0.5) ?? 5;
    return Math.max(1, Math.ceil((p50 * Math.max(1, this.queued)) / Math.max(1, this.o.concurrency)));
  }
}

import { InternalError } from '../episode/index.js';
import type { HookFault } from '../hooks/hook-provider.js';
import type { ResolvedSandboxOptions } from './sandbox-options.js';
import { WorkerGoneError, type WorkerProcess } from './worker-process.js';

/** The hooks of one patch, in patch order, as one worker installs them. */
/**
 * The worker interrupts a hook at its budget of CPU time, or at this many times the budget of wall time
 * when the machine starves it (see worker-main.js); the parent's kill deadline leaves room for that.
 */
export const HOOK_STARVATION_FACTOR = 20;

/** Extra time the parent waits past the worker's own limits before it SIGKILLs a worker that stopped answering. */
const PARENT_BACKSTOP_MS = 2000;

export interface SandboxHookset {
  sources: readonly string[];
  benchmark: string | undefined;
}

/** What one hook call produced: its raw result (JSON) or the fault that stopped it. */
export type SandboxCallOutcome = { raw: unknown } | { fault: HookFault };

/** One episode pinned to one worker, where its `nb` lives. */
export interface SandboxEpisode {
  /** Runs hook `index` of the hookset with `ctxJson` (JSON text of ctx). Never throws. */
  call(index: number, ctxJson: string): Promise<SandboxCallOutcome>;
  /**
   * The fault to report when this episode's worker died while the episode was idle (its `nb` is gone).
   * Returns it once; the next `call` runs on a fresh worker with a fresh `nb`.
   */
  takeLostWorker(): HookFault | undefined;
  close(): Promise<void>;
}

/** What an episode needs from its pool. */
export interface EpisodeHost {
  readonly options: ResolvedSandboxOptions;
  /** A ready worker that takes new episodes (waits for one). */
  acquire(): Promise<WorkerProcess>;
  /** Called after each reply, to recycle workers that grew or ran out of memory. */
  noteHeap(worker: WorkerProcess, ranOutOfMemory: boolean): void;
  /** Called when an episode leaves a worker. */
  retireIfIdle(worker: WorkerProcess): void;
}

/** An episode pinned to one worker; re-pinned (with a fresh nb) when that worker is lost. */
export class PinnedEpisode implements SandboxEpisode {
  private worker: WorkerProcess | undefined;
  private detach: (() => void) | undefined;
  private lost: HookFault | undefined;
  private busy = false;
  private closed = false;
  /** Worker kills each hook's calls have caused in this episode, by hook index. */
  private readonly kills = new Map<number, number>();
  /** Why a hook was switched off, by hook index. */
  private readonly disabled = new Map<number, string>();

  constructor(
    private readonly pool: EpisodeHost,
    private readonly id: string,
    private readonly hookset: SandboxHookset,
  ) {}

  takeLostWorker(): HookFault | undefined {
    const lost = this.lost;
    this.lost = undefined;
    return lost;
  }

  async call(index: number, ctxJson: string): Promise<SandboxCallOutcome> {
    if (this.closed) return { fault: { kind: 'worker_crash', message: 'episode is closed' } };
    const off = this.disabled.get(index);
    if (off !== undefined) return { fault: { kind: 'disabled', message: off } };
    this.busy = true;
    try {
      let worker: WorkerProcess;
      try {
        worker = await this.pin();
      } catch (error) {
        return { fault: { kind: 'worker_crash', message: `no sandbox worker available: ${(error as Error).message}` } };
      }
      const { hookTimeoutMs, killGraceMs } = this.pool.options;
      try {
        const text = await worker.request(
          { type: 'call', episodeId: this.id, hookIndex: index, ctx: ctxJson, timeoutMs: hookTimeoutMs, killGraceMs },
          // The worker interrupts and, if needed, ends itself; this kill is the backstop for a wedged worker.
          hookTimeoutMs * HOOK_STARVATION_FACTOR + killGraceMs + PARENT_BACKSTOP_MS,
        );
        const outcome = parseCallResult(text, hookTimeoutMs);
        this.pool.noteHeap(worker, 'fault' in outcome && outcome.fault.kind === 'memory');
        return outcome;
      } catch (error) {
        if (!(error instanceof WorkerGoneError)) throw error;
        this.unpin();
        const fault = faultFromGone(error, hookTimeoutMs);
        if (error.ran && error.reason !== 'closed' && error.reason !== 'retired') this.countKill(index, fault);
        return { fault };
      }
    } finally {
      this.busy = false;
    }
  }

  /**
   * A hook whose calls keep taking the worker down (C code that ignores the interrupt, say) would cost a
   * worker restart on every call; after `hookKillLimit` kills it is switched off for the rest of the episode.
   */
  private countKill(index: number, fault: HookFault): void {
    const limit = this.pool.options.hookKillLimit;
    const kills = (this.kills.get(index) ?? 0) + 1;
    this.kills.set(index, kills);
    if (limit > 0 && kills >= limit) {
      this.disabled.set(
        index,
        `hook switched off for the rest of the episode after ${kills} worker kill(s) (limit ${limit}); last: ${fault.kind}: ${fault.message}`,
      );
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const worker = this.worker;
    if (worker !== undefined && worker.state !== 'dead') {
      await worker.request({ type: 'close', episodeId: this.id }, this.pool.options.compileTimeoutMs).catch(() => undefined);
    }
    this.unpin();
  }

  private async pin(): Promise<WorkerProcess> {
    if (this.worker !== undefined && this.worker.state !== 'dead') return this.worker;
    let lastError: unknown;
    for (let attempt = 0; attempt < 2; attempt++) {
      const worker = await this.pool.acquire();
      worker.episodes.add(this.id);
      try {
        const text = await worker.request(
          { type: 'open', episodeId: this.id, sources: [...this.hookset.sources], benchmark: this.hookset.benchmark ?? '' },
          this.pool.options.compileTimeoutMs,
        );
        const parsed = JSON.parse(text) as { ok?: boolean; error?: string };
        if (parsed.ok !== true) throw new InternalError({ message: `episode could not be opened: ${parsed.error ?? text}` });
      } catch (error) {
        worker.episodes.delete(this.id);
        lastError = error;
        if (error instanceof WorkerGoneError) continue;
        throw error;
      }
      this.worker = worker;
      this.detach = worker.onExitOnce((dead) => {
        this.worker = undefined;
        this.detach = undefined;
        if (!this.busy && !this.closed) {
          this.lost = {
            kind: 'worker_crash',
            message: `the episode's sandbox worker stopped (${dead.exit?.reason ?? 'exit'}: ${dead.exit?.message ?? ''}); nb was reset`,
          };
        }
      });
      return worker;
    }
    throw lastError instanceof Error ? lastError : new InternalError({ message: 'episode could not be opened' });
  }

  private unpin(): void {
    const worker = this.worker;
    this.detach?.();
    this.detach = undefined;
    this.worker = undefined;
    if (worker !== undefined) {
      worker.episodes.delete(this.id);
      this.pool.retireIfIdle(worker);
    }
  }
}

function parseCallResult(text: string, timeoutMs: number): SandboxCallOutcome {
  let parsed: { raw?: unknown; fault?: HookFault; error?: string };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    return { fault: { kind: 'bad_result', message: 'the worker returned text that is not JSON' } };
  }
  if (parsed.fault !== undefined) {
    if (parsed.fault.kind === 'timeout') {
      return { fault: { kind: 'timeout', message: `hook exceeded the ${timeoutMs} ms wall-clock limit (interrupted; nb kept)` } };
    }
    return { fault: parsed.fault };
  }
  if (parsed.error !== undefined) return { fault: { kind: 'worker_crash', message: `sandbox runtime error: ${parsed.error}` } };
  return { raw: parsed.raw ?? null };
}

function faultFromGone(error: WorkerGoneError, timeoutMs: number): HookFault {
  if (!error.ran) {
    return { kind: 'worker_crash', message: `hook did not run: ${error.message}; nb was reset` };
  }
  switch (error.reason) {
    case 'timeout':
      return {
        kind: 'timeout',
        message: `hook exceeded the ${timeoutMs} ms wall-clock limit and did not stop; the worker was killed and nb was reset`,
      };
    case 'memory':
      return { kind: 'memory', message: `${error.message}; the worker was replaced and nb was reset` };
    case 'closed':
      return { kind: 'worker_crash', message: 'sandbox pool closed during the call' };
    default:
      return { kind: 'worker_crash', message: `${error.message}; the worker was replaced and nb was reset` };
  }
}

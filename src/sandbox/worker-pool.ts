import { InternalError } from '../episode/index.js';
import { PinnedEpisode, type EpisodeHost, type SandboxEpisode, type SandboxHookset } from './sandbox-episode.js';
import { resolveSandboxOptions, type ResolvedSandboxOptions, type SandboxPoolOptions } from './sandbox-options.js';
import {
  detectNetworkProtection,
  permissionFlag,
  resolveSandboxAssets,
  type NetworkProtection,
  type SandboxAssets,
} from './worker-command.js';
import { WorkerGoneError, WorkerProcess } from './worker-process.js';

export type { SandboxCallOutcome, SandboxEpisode, SandboxHookset } from './sandbox-episode.js';

/** The verdict of `compile_hook` (protocol.md §5.1) plus the Python version that produced it. */
export type CompileHookResult =
  | { ok: true; nodeCount: number; pythonVersion: string }
  | { ok: false; reason: string; pythonVersion: string };

export interface SandboxWorkerInfo {
  id: number;
  pid: number | undefined;
  state: 'starting' | 'ready' | 'dead';
  draining: boolean;
  episodes: number;
  heapMb: number;
  calls: number;
  fromSnapshot: boolean | undefined;
  loadMs: number | undefined;
}

export interface SandboxPoolInfo {
  pythonVersion: string | undefined;
  pyodideVersion: string;
  /** The Node flag that enabled the permission model in workers. */
  permissionFlag: string;
  network: NetworkProtection & {
    /** Whether a started worker confirmed it sees no network interface (undefined before any worker started). */
    verified: boolean | undefined;
  };
  snapshot: { state: 'off' | 'pending' | 'ready' | 'failed'; bytes: number };
  /** Milliseconds from pool creation to the first ready worker. */
  coldStartMs: number | undefined;
  workers: SandboxWorkerInfo[];
  /** Workers replaced so far, by reason. */
  replaced: { timeout: number; memory: number; crash: number; recycled: number };
}

/** A warm pool of sandbox worker processes. One pool per process is the normal use; close it when done. */
export interface SandboxPool {
  readonly options: Readonly<ResolvedSandboxOptions>;
  /** Resolves when at least one worker is ready; rejects if workers cannot start at all. */
  ready(): Promise<SandboxPoolInfo>;
  info(): SandboxPoolInfo;
  /** `compile_hook(source, benchmark)`; see `compileHook`. */
  validate(source: string, benchmark?: string): Promise<CompileHookResult>;
  /** Pins a new episode (fresh `nb`) to the least loaded worker. */
  openEpisode(hookset: SandboxHookset): Promise<SandboxEpisode>;
  /**
   * Diagnostics: per ready worker, a fingerprint of the attribute state of every module in its `sys.modules`
   * and of the classes and functions in them. Equal fingerprints before and after an episode show that the
   * episode left nothing behind in objects other episodes share.
   */
  sharedStateFingerprints(): Promise<Array<{ worker: number; fingerprint: string; sharedObjects: number }>>;
  close(): Promise<void>;
}

const MAX_START_FAILURES = 3;
const SNAPSHOT_TESTED_PYODIDE = '314.0.7';

class WorkerPool implements SandboxPool, EpisodeHost {
  readonly options: ResolvedSandboxOptions;
  private readonly assets: SandboxAssets;
  private readonly network: NetworkProtection;
  private readonly workers: WorkerProcess[] = [];
  private readonly waiters: Array<() => void> = [];
  private readonly createdAt = performance.now();
  private snapshot: Uint8Array | undefined;
  private snapshotState: SandboxPoolInfo['snapshot']['state'];
  private coldStartMs: number | undefined;
  private pythonVersion: string | undefined;
  private networkVerified: boolean | undefined;
  private startFailures = 0;
  private startError: string | undefined;
  private closed = false;
  private nextWorkerId = 1;
  private nextEpisodeId = 1;
  private readonly replaced = { timeout: 0, memory: 0, crash: 0, recycled: 0 };

  constructor(options: ResolvedSandboxOptions) {
    this.options = options;
    this.assets = resolveSandboxAssets();
    this.network = detectNetworkProtection(options.networkIsolation);
    // Memory snapshots use a private Pyodide API: only with the version they were tested with.
    const snapshots = options.useSnapshot && this.assets.pyodideVersion === SNAPSHOT_TESTED_PYODIDE;
    this.snapshotState = snapshots ? 'pending' : 'off';
    if (snapshots) {
      // The first worker makes the snapshot; the others start from it.
      this.spawn().ready.then(
        () => this.replenish(),
        () => undefined,
      );
    } else {
      this.replenish();
    }
  }

  ready(): Promise<SandboxPoolInfo> {
    return this.acquire().then(() => this.info());
  }

  info(): SandboxPoolInfo {
    return {
      pythonVersion: this.pythonVersion,
      pyodideVersion: this.assets.pyodideVersion,
      permissionFlag: permissionFlag(),
      network: { ...this.network, verified: this.networkVerified },
      snapshot: { state: this.snapshotState, bytes: this.snapshot?.byteLength ?? 0 },
      coldStartMs: this.coldStartMs,
      workers: this.workers.map((w) => ({
        id: w.id,
        pid: w.pid,
        state: w.state,
        draining: w.draining,
        episodes: w.episodes.size,
        heapMb: Math.round(w.heapBytes / 1048576),
        calls: w.calls,
        fromSnapshot: w.info?.fromSnapshot,
        loadMs: w.info === undefined ? undefined : Math.round(w.info.loadMs),
      })),
      replaced: { ...this.replaced },
    };
  }

  async validate(source: string, benchmark?: string): Promise<CompileHookResult> {
    let lastError: WorkerGoneError | undefined;
    for (let attempt = 0; attempt < 2; attempt++) {
      const worker = await this.acquire();
      try {
        const text = await worker.request({ type: 'validate', source, benchmark: benchmark ?? '' }, this.options.compileTimeoutMs);
        const parsed = JSON.parse(text) as { ok?: boolean; nodeCount?: number; reason?: string; error?: string };
        const pythonVersion = worker.info?.pythonVersion ?? 'unknown';
        if (parsed.error !== undefined) throw new InternalError({ message: `sandbox validator failed: ${parsed.error}` });
        if (parsed.ok === true) return { ok: true, nodeCount: parsed.nodeCount ?? 0, pythonVersion };
        return { ok: false, reason: parsed.reason ?? 'rejected', pythonVersion };
      } catch (error) {
        if (!(error instanceof WorkerGoneError)) throw error;
        lastError = error;
      }
    }
    return {
      ok: false,
      reason: `hook code could not be validated: the sandbox worker failed twice (${lastError?.message ?? 'unknown'})`,
      pythonVersion: this.pythonVersion ?? 'unknown',
    };
  }

  async openEpisode(hookset: SandboxHookset): Promise<SandboxEpisode> {
    if (this.closed) throw new InternalError({ message: 'sandbox pool is closed' });
    return new PinnedEpisode(this, `e${this.nextEpisodeId++}`, hookset);
  }

  async sharedStateFingerprints(): Promise<Array<{ worker: number; fingerprint: string; sharedObjects: number }>> {
    const ready = this.workers.filter((w) => w.state === 'ready');
    return Promise.all(
      ready.map(async (w) => {
        const text = await w.request({ type: 'inspect' }, this.options.compileTimeoutMs);
        const parsed = JSON.parse(text) as { fingerprint?: string; shared?: number; error?: string };
        if (parsed.fingerprint === undefined) throw new InternalError({ message: `sandbox worker could not inspect its state: ${parsed.error ?? text}` });
        return { worker: w.id, fingerprint: parsed.fingerprint, sharedObjects: parsed.shared ?? 0 };
      }),
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const exits = this.workers.map((w) => new Promise<void>((resolve) => (w.state === 'dead' ? resolve() : w.onExitOnce(() => resolve()))));
    for (const w of this.workers) w.kill('closed', 'sandbox pool closed');
    this.wake();
    await Promise.all(exits);
  }

  /** A ready worker that takes new episodes: the one with the fewest episodes, then the shortest queue. */
  async acquire(): Promise<WorkerProcess> {
    for (;;) {
      if (this.closed) throw new InternalError({ message: 'sandbox pool is closed' });
      if (this.startError !== undefined) throw new InternalError({ message: this.startError });
      let best: WorkerProcess | undefined;
      for (const w of this.workers) {
        if (w.state !== 'ready' || w.draining) continue;
        if (best === undefined || w.episodes.size < best.episodes.size || (w.episodes.size === best.episodes.size && w.load < best.load)) best = w;
      }
      if (best !== undefined) return best;
      this.replenish();
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /**
   * After a reply: a worker whose memory grew past the threshold, or that just ran out of memory, takes no
   * new episodes and is replaced; it is retired when its last episode closes.
   */
  noteHeap(worker: WorkerProcess, ranOutOfMemory: boolean): void {
    if (worker.draining || (!ranOutOfMemory && worker.heapBytes <= this.options.recycleHeapMb * 1048576)) return;
    worker.draining = true;
    this.replenish();
    this.retireIfIdle(worker);
  }

  retireIfIdle(worker: WorkerProcess): void {
    if (worker.draining && worker.episodes.size === 0 && worker.load === 0 && worker.state !== 'dead') {
      this.replaced.recycled++;
      worker.kill('retired', 'worker recycled after memory growth');
    }
  }

  private replenish(): void {
    if (this.closed || this.startError !== undefined) return;
    if (this.snapshotState === 'pending' && this.workers.some((w) => w.state === 'starting')) return;
    const active = this.workers.filter((w) => w.state !== 'dead' && !w.draining).length;
    for (let i = active; i < this.options.size; i++) this.spawn();
  }

  private spawn(): WorkerProcess {
    const makeSnapshot = this.snapshotState === 'pending' && this.snapshot === undefined;
    const worker = new WorkerProcess({
      id: this.nextWorkerId++,
      assets: this.assets,
      options: this.options,
      network: this.network,
      snapshot: this.snapshot,
      makeSnapshot,
      onSnapshot: (bytes) => {
        this.snapshot = bytes;
        this.snapshotState = 'ready';
      },
    });
    this.workers.push(worker);
    worker.ready.then(
      (info) => {
        this.startFailures = 0;
        this.pythonVersion ??= info.pythonVersion;
        this.coldStartMs ??= performance.now() - this.createdAt;
        if (this.network.kind !== 'js-only') {
          const isolated = info.networkInterfaces.every((name) => name === 'lo');
          this.networkVerified = this.networkVerified === false ? false : isolated;
        } else {
          this.networkVerified = false;
        }
        if (makeSnapshot && this.snapshot === undefined) this.snapshotState = 'failed';
        if (this.closed) worker.kill('closed');
        this.wake();
      },
      () => undefined,
    );
    worker.onExitOnce(() => this.onWorkerExit(worker));
    return worker;
  }

  private onWorkerExit(worker: WorkerProcess): void {
    const index = this.workers.indexOf(worker);
    if (index >= 0) this.workers.splice(index, 1);
    if (this.closed) return;
    const reason = worker.exit?.reason;
    if (worker.info === undefined) {
      this.startFailures++;
      if (this.snapshotState === 'pending' && this.snapshot === undefined) this.snapshotState = 'failed';
      if (this.startFailures >= MAX_START_FAILURES) {
        this.startError = `sandbox workers cannot start (${this.startFailures} attempts): ${worker.exit?.message ?? 'unknown'}`;
        this.wake();
        return;
      }
    } else if (reason === 'timeout') {
      this.replaced.timeout++;
    } else if (reason === 'memory') {
      this.replaced.memory++;
    } else if (reason !== 'retired') {
      this.replaced.crash++;
    }
    this.replenish();
    this.wake();
  }

  private wake(): void {
    for (const resolve of this.waiters.splice(0)) resolve();
  }
}

/**
 * Starts a warm pool of sandbox workers (see README). Workers start in the background; `ready()` waits for
 * the first one. Throws `ConfigError` for bad options or a missing Pyodide install.
 */
export function createSandboxPool(options: SandboxPoolOptions = {}): SandboxPool {
  return new WorkerPool(resolveSandboxOptions(options));
}

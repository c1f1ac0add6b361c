import { spawn, type ChildProcess } from 'node:child_process';

import type { ResolvedSandboxOptions } from './sandbox-options.js';
import { buildWorkerArgs, type NetworkProtection, type SandboxAssets } from './worker-command.js';

/** Why a worker process is gone. */
export type WorkerExitReason = 'timeout' | 'fatal' | 'memory' | 'exit' | 'retired' | 'closed' | 'start_failed';

/**
 * A request did not get an answer because its worker is gone. `ran` tells whether the request had been
 * handed to the worker (the hook may have run, and may be what killed it) or was still queued behind
 * another request.
 */
export class WorkerGoneError extends Error {
  readonly code = 'worker_gone' as const;
  constructor(
    readonly reason: WorkerExitReason,
    readonly ran: boolean,
    message: string,
  ) {
    super(message);
    this.name = 'WorkerGoneError';
  }
}

export interface WorkerReadyInfo {
  pythonVersion: string;
  hardened: boolean;
  /** Shared objects hook code could change, whose state is restored after calls that assign attributes. */
  sharedObjects: number;
  loadMs: number;
  fromSnapshot: boolean;
  heapBytes: number;
  networkInterfaces: string[];
}

/** Messages the pool sends; `id` is added by `request`. */
export type WorkerRequest =
  | { type: 'validate'; source: string; benchmark: string }
  | { type: 'open'; episodeId: string; sources: string[]; benchmark: string }
  | { type: 'call'; episodeId: string; hookIndex: number; ctx: string; timeoutMs: number; killGraceMs: number }
  | { type: 'close'; episodeId: string }
  | { type: 'inspect' };

type WorkerMessage =
  | { type: 'spawned' }
  | ({ type: 'ready' } & WorkerReadyInfo)
  | { type: 'snapshot'; bytes: Uint8Array }
  | { type: 'fatal'; message: string }
  | { type: 'log'; message: string };

interface Pending {
  id: number;
  message: WorkerRequest & { id: number };
  deadlineMs: number;
  resolve(result: string): void;
  reject(error: WorkerGoneError): void;
}

export interface WorkerStartOptions {
  id: number;
  assets: SandboxAssets;
  options: ResolvedSandboxOptions;
  network: NetworkProtection;
  snapshot: Uint8Array | undefined;
  makeSnapshot: boolean;
  onSnapshot?: (bytes: Uint8Array) => void;
}

const OUTPUT_TAIL_CHARS = 4000;
/** Reply frame: u32 length of the rest, u32 request id, u32 WebAssembly heap bytes, then the result as UTF-8. */
const REPLY_HEADER_BYTES = 12;

/**
 * One sandbox worker process, seen from the parent: spawn, requests answered one at a time, a hard
 * deadline per request (SIGKILL when it passes), and an exit that fails whatever was pending.
 *
 * IPC carries start-up, the snapshot a cold worker made, and fatal errors. Requests go to the worker's interpreter
 * thread directly, as length-prefixed JSON frames on its stdin (after the snapshot's bytes, for a worker started
 * from one); replies come back as frames on its stdout (see
 * `REPLY_HEADER_BYTES`). Only stderr is kept as the output tail.
 */
export class WorkerProcess {
  readonly id: number;
  readonly ready: Promise<WorkerReadyInfo>;
  state: 'starting' | 'ready' | 'dead' = 'starting';
  /** Set when the worker should take no new episodes; it is retired once its episodes close. */
  draining = false;
  readonly episodes = new Set<string>();
  heapBytes = 0;
  info: WorkerReadyInfo | undefined;
  exit: { reason: WorkerExitReason; message: string } | undefined;
  calls = 0;

  private readonly child: ChildProcess;
  private readonly queue: Pending[] = [];
  private inFlight: Pending | undefined;
  private timer: NodeJS.Timeout | undefined;
  private nextId = 1;
  private killReason: WorkerExitReason | undefined;
  private fatalMessage: string | undefined;
  private output = '';
  private replyBuffer: Buffer = Buffer.alloc(0);
  private readonly maxReplyBytes: number;
  private readonly exitListeners = new Set<(worker: WorkerProcess) => void>();

  constructor(start: WorkerStartOptions) {
    this.id = start.id;
    const { assets, options, network } = start;
    const nodeArgs = buildWorkerArgs({ pyodideDir: assets.pyodideDir, workerScript: assets.workerScript });
    const [command, ...prefixArgs] = [...network.prefix, process.execPath];
    // A result may be up to maxResultChars of JSON; UTF-8 takes at most 3 bytes per UTF-16 unit.
    this.maxReplyBytes = (options.maxResultChars + 10_000) * 3 + REPLY_HEADER_BYTES;
    this.child = spawn(command ?? process.execPath, [...prefixArgs, ...nodeArgs], {
      stdio: ['pipe', 'pipe', 'pipe', 'ipc'],
      serialization: 'advanced',
      env: { PYTHONHASHSEED: '0' },
      cwd: assets.pyodideDir,
    });
    const keepTail = (chunk: Buffer): void => {
      this.output = (this.output + chunk.toString('utf8')).slice(-OUTPUT_TAIL_CHARS);
    };
    this.child.stderr?.on('data', keepTail);
    this.child.stdout?.on('data', (chunk: Buffer) => this.onReplyData(chunk));
    // Writes to a worker that just died fail with EPIPE; its exit is handled below.
    this.child.stdin?.on('error', () => undefined);

    let startTimer: NodeJS.Timeout | undefined;
    this.ready = new Promise<WorkerReadyInfo>((resolve, reject) => {
      startTimer = setTimeout(() => {
        this.kill('start_failed', `worker did not start within ${options.startTimeoutMs} ms`);
      }, options.startTimeoutMs);
      this.child.on('message', (raw: WorkerMessage) => {
        switch (raw.type) {
          case 'spawned':
            this.child.send({
              type: 'init',
              init: {
                pyodideDir: assets.pyodideDir,
                validatorSource: assets.validatorSource,
                runnerSource: assets.runnerSource,
                // The bytes follow on the request pipe, ahead of any request.
                snapshotBytes: start.snapshot?.length ?? 0,
                makeSnapshot: start.makeSnapshot,
                memoryLimitBytes: options.memoryLimitMb * 1024 * 1024,
                // Node and Pyodide take about 200 MiB besides the WebAssembly heap.
                rssLimitBytes: (options.memoryLimitMb + 512) * 1024 * 1024,
                stackSizeMb: options.interpreterStackMb,
                jsHeapMb: 512,
                maxReplyChars: options.maxResultChars + 10_000,
                settings: {
                  line_budget: options.lineBudget,
                  max_result_chars: options.maxResultChars,
                  unvalidated: options.simulateInterpreterEscape,
                },
              },
            });
            if (start.snapshot !== undefined) this.child.stdin?.write(start.snapshot);
            return;
          case 'snapshot':
            start.onSnapshot?.(raw.bytes);
            return;
          case 'ready': {
            clearTimeout(startTimer);
            const { type: _type, ...info } = raw;
            this.info = info;
            this.heapBytes = info.heapBytes;
            if (this.state === 'starting') this.state = 'ready';
            resolve(info);
            this.pump();
            return;
          }
          case 'fatal':
            this.fatalMessage ??= raw.message;
            return;
          case 'log':
            this.output = `${this.output}\n${raw.message}`.slice(-OUTPUT_TAIL_CHARS);
            return;
        }
      });
      this.child.on('exit', (code, signal) => {
        clearTimeout(startTimer);
        this.onExit(code, signal);
        reject(new WorkerGoneError(this.exit?.reason ?? 'exit', false, this.exit?.message ?? 'worker exited'));
      });
      this.child.on('error', (error) => {
        this.killReason ??= 'start_failed';
        this.fatalMessage ??= `worker could not be started: ${error.message}`;
        // A process that never spawned emits no 'exit'.
        if (this.child.pid === undefined) {
          clearTimeout(startTimer);
          this.onExit(null, null);
          reject(new WorkerGoneError('start_failed', false, this.fatalMessage));
        } else {
          this.child.kill('SIGKILL');
        }
      });
    });
    this.ready.catch(() => undefined);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Requests queued or running on this worker. */
  get load(): number {
    return this.queue.length + (this.inFlight ? 1 : 0);
  }

  /** Last lines the worker printed (startup problems, Pyodide fatal errors). */
  get outputTail(): string {
    return this.output;
  }

  onExitOnce(listener: (worker: WorkerProcess) => void): () => void {
    this.exitListeners.add(listener);
    return () => this.exitListeners.delete(listener);
  }

  /** Sends one request; resolves with the worker's result text. Past `deadlineMs` the worker is killed. */
  request(message: WorkerRequest, deadlineMs: number): Promise<string> {
    if (this.state === 'dead') {
      return Promise.reject(new WorkerGoneError(this.exit?.reason ?? 'exit', false, this.exit?.message ?? 'worker is gone'));
    }
    return new Promise<string>((resolve, reject) => {
      const id = this.nextId++;
      this.queue.push({ id, message: { ...message, id }, deadlineMs, resolve, reject });
      this.pump();
    });
  }

  /** Kills the process (SIGKILL); pending requests fail with `reason`. */
  kill(reason: WorkerExitReason, message?: string): void {
    if (this.state === 'dead') return;
    this.killReason ??= reason;
    if (message !== undefined) this.fatalMessage ??= message;
    this.child.kill('SIGKILL');
  }

  private pump(): void {
    if (this.inFlight !== undefined || this.state !== 'ready') return;
    const next = this.queue.shift();
    if (next === undefined) return;
    this.inFlight = next;
    this.timer = setTimeout(() => {
      this.kill('timeout', `request exceeded its ${next.deadlineMs} ms deadline`);
    }, next.deadlineMs);
    if (next.message.type === 'call') this.calls++;
    const body = Buffer.from(JSON.stringify(next.message), 'utf8');
    const frame = Buffer.allocUnsafe(4 + body.length);
    frame.writeUInt32LE(body.length, 0);
    body.copy(frame, 4);
    this.child.stdin?.write(frame);
  }

  private onReplyData(chunk: Buffer): void {
    this.replyBuffer = this.replyBuffer.length === 0 ? chunk : Buffer.concat([this.replyBuffer, chunk]);
    while (this.replyBuffer.length >= 4) {
      const length = this.replyBuffer.readUInt32LE(0);
      // Only an interpreter that escaped the runner can write frames like these.
      if (length < REPLY_HEADER_BYTES - 4 || length + 4 > this.maxReplyBytes) {
        this.replyBuffer = Buffer.alloc(0);
        this.kill('fatal', 'the interpreter produced an oversized or malformed reply');
        return;
      }
      if (this.replyBuffer.length < length + 4) return;
      const id = this.replyBuffer.readUInt32LE(4);
      const heapBytes = this.replyBuffer.readUInt32LE(8);
      const result = this.replyBuffer.toString('utf8', REPLY_HEADER_BYTES, length + 4);
      this.replyBuffer = this.replyBuffer.subarray(length + 4);
      this.onReply(id, result, heapBytes);
    }
  }

  private onReply(id: number, result: string, heapBytes: number): void {
    const pending = this.inFlight;
    if (pending === undefined || pending.id !== id) return;
    clearTimeout(this.timer);
    this.inFlight = undefined;
    this.heapBytes = heapBytes;
    pending.resolve(result);
    this.pump();
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.state === 'dead') return;
    this.state = 'dead';
    clearTimeout(this.timer);
    let reason: WorkerExitReason = this.killReason ?? (this.fatalMessage !== undefined ? 'fatal' : 'exit');
    if (reason === 'fatal' && /memory/i.test(this.fatalMessage ?? '')) reason = 'memory';
    if (reason === 'fatal' && /wall-clock limit/i.test(this.fatalMessage ?? '')) reason = 'timeout';
    const message =
      this.fatalMessage ??
      `worker exited (${signal ?? `code ${String(code)}`})${this.output ? `: ${this.output.trim().split('\n').slice(-2).join(' | ')}` : ''}`;
    this.exit = { reason, message };
    const inFlight = this.inFlight;
    this.inFlight = undefined;
    if (inFlight) inFlight.reject(new WorkerGoneError(reason, true, message));
    for (const pending of this.queue.splice(0)) {
      pending.reject(new WorkerGoneError(reason, false, `worker stopped before this request ran (${reason}: ${message})`));
    }
    for (const listener of [...this.exitListeners]) listener(this);
    this.exitListeners.clear();
  }
}

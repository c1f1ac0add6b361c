// Entry point of one sandbox worker process (plain JavaScript: it runs under Node's permission model, which
// only lets it read this file and Pyodide's directory, so no TypeScript loader can run here).
//
// Main thread = supervisor: starts the interpreter thread (IPC carries only start-up, the snapshot a cold worker
// made, and fatal errors) and owns the per-call wall clock: at the deadline it raises KeyboardInterrupt inside Python through
// Pyodide's interrupt buffer (a SharedArrayBuffer shared with the interpreter thread; this does not work across
// processes, which is why the supervisor lives in the same process). It learns of calls through the same shared
// memory, not through messages: one watch loop, asleep while no call runs and woken at most once per call
// budget while calls run. The parent still SIGKILLs the whole process if the interpreter does not stop (C code
// that never checks for interrupts, e.g. `sum(range(10**13))`, or a blocked thread).
//
// Requests and replies do not pass through the supervisor: the interpreter thread reads length-prefixed
// request frames from fd 0 and writes reply frames to fd 1 with blocking system calls, so a call costs one
// wake-up on each side instead of an IPC message and a thread hop each way.
//
// Interpreter thread = Pyodide with a large native stack (deep recursion becomes RecursionError instead of a
// fatal stack overflow), a hard cap on WebAssembly memory (allocation beyond it is a Python MemoryError), no
// `process.binding` beyond what Pyodide needs, and JS-level network entry points disabled (defence in depth
// under the network namespace, and the only network barrier where `unshare -n` is unavailable).
/* global process, URL, setTimeout, setInterval, performance, WebAssembly, Buffer */
import dgram from 'node:dgram';
import dns from 'node:dns';
import fs from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import tls from 'node:tls';
import { fileURLToPath, pathToFileURL } from 'node:url';
import workerThreads, { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

const INTERRUPT = 0; // Pyodide reads this slot: 2 = SIGINT
const ACTIVE_CALL = 1; // sequence number of the call the interpreter is running, 0 when idle
const WATCH_IDLE = 2; // 1 while the supervisor sleeps until a call starts (the interpreter then wakes it)
const BUDGET_MS = 3; // wall-clock budget of the running call
const GRACE_MS = 4; // how long after the interrupt the supervisor ends the process
const START_SLOT = 3; // Float64 slot (bytes 24..31): when the running call started, ms since the epoch
const CPU_SLOT = 4; // Float64 slot (bytes 32..39): the process's CPU time (user + system, µs) when it started
const SHARED_BYTES = 40;
const REQUEST_FD = 0;
const REPLY_FD = 1;
const REPLY_HEADER_BYTES = 12; // u32 length of the rest, u32 request id, u32 WebAssembly heap bytes
const THREAD_MESSAGES = new Set(['ready', 'snapshot', 'fatal', 'log']);
// Imported before a memory snapshot is taken, so workers started from it do not import them again.
const PRELOAD = 'import ast, difflib, io, json, math, re, reprlib, tokenize, types, warnings, encodings.idna';

if (isMainThread) {
  runSupervisor();
} else {
  await runInterpreter(workerData);
}

function runSupervisor() {
  let thread;
  const buffer = new SharedArrayBuffer(SHARED_BYTES);
  const shared = new Int32Array(buffer);
  const started = new Float64Array(buffer);

  const die = (message, code) => {
    send({ type: 'fatal', message });
    setTimeout(() => process.exit(code), 20).unref();
  };

  process.on('disconnect', () => process.exit(0));
  process.on('message', (message) => {
    if (message === null || typeof message !== 'object' || message.type !== 'init' || thread !== undefined) return;
    // The snapshot itself does not come through IPC: the interpreter thread reads it from the request pipe.
    const init = { ...message.init, shared: buffer };
    thread = new Worker(new URL(import.meta.url), {
      workerData: init,
      resourceLimits: {
        stackSizeMb: message.init.stackSizeMb,
        maxOldGenerationSizeMb: message.init.jsHeapMb,
      },
      env: {},
      stdout: false,
      stderr: false,
    });
    thread.on('message', (reply) => {
      if (reply === null || typeof reply !== 'object' || !THREAD_MESSAGES.has(reply.type)) return;
      send(reply);
    });
    thread.on('error', (error) => die(`interpreter thread failed: ${error?.message ?? error}`, 70));
    thread.on('exit', (code) => die(`interpreter thread exited with code ${code}`, 70));
    // WebAssembly memory is capped inside the thread; this also bounds memory the thread could take any other
    // way (e.g. ArrayBuffers, which the JS heap limit does not count).
    setInterval(() => {
      const rss = process.memoryUsage.rss();
      if (rss > init.rssLimitBytes) die(`worker memory (RSS ${Math.round(rss / 1048576)} MiB) exceeded its limit`, 71);
    }, 100);
    void watchCalls(shared, started, die);
  });
  send({ type: 'spawned' });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const epochMs = () => performance.timeOrigin + performance.now();

/**
 * The wall clock of every call, from shared memory. The limit is wall-clock time of the hook, but a hook starved
 * of CPU by a loaded machine is not a slow hook: at the deadline, if this process has not yet spent the budget in
 * CPU time, the deadline moves on (up to STARVATION_FACTOR x the budget of wall time). A hook that really computes
 * is interrupted at the budget, as the original's SIGALRM would. The interpreter records the start's wall and CPU
 * time in shared memory, so the figures are exact however late the supervisor gets to see the call.
 */
async function watchCalls(shared, started, die) {
  for (;;) {
    const seq = Atomics.load(shared, ACTIVE_CALL);
    if (seq === 0) {
      Atomics.store(shared, WATCH_IDLE, 1);
      const wait = Atomics.waitAsync(shared, ACTIVE_CALL, 0);
      if (wait.async) await wait.value;
      Atomics.store(shared, WATCH_IDLE, 0);
      continue;
    }
    const startedAt = started[START_SLOT];
    const cpuAtStart = started[CPU_SLOT];
    const budget = Atomics.load(shared, BUDGET_MS);
    const grace = Atomics.load(shared, GRACE_MS);
    if (Atomics.load(shared, ACTIVE_CALL) !== seq) continue;
    let deadline = startedAt + budget;
    for (;;) {
      await sleep(Math.max(1, deadline - epochMs()));
      if (Atomics.load(shared, ACTIVE_CALL) !== seq) break;
      const used = process.cpuUsage();
      const cpuMs = (used.user + used.system - cpuAtStart) / 1000;
      const now = epochMs();
      if (cpuMs < budget && now - startedAt < budget * STARVATION_FACTOR) {
        deadline = now + Math.max(1, budget - cpuMs);
        continue;
      }
      Atomics.store(shared, INTERRUPT, 2);
      // C code that never checks for interrupts keeps running: end the process after the grace period.
      await sleep(grace);
      if (Atomics.load(shared, ACTIVE_CALL) === seq) die('hook exceeded its wall-clock limit and ignored the interrupt', 72);
      break;
    }
  }
}

/** How many times its budget in wall time a CPU-starved hook may take before it is interrupted anyway. */
const STARVATION_FACTOR = 20;

function send(message) {
  if (process.connected) process.send(message, undefined, {}, () => {});
}

async function runInterpreter(init) {
  const shared = new Int32Array(init.shared);
  const startedAt = new Float64Array(init.shared);
  const post = (message, transfer) => parentPort.postMessage(message, transfer);
  const fatal = (error) => {
    post({ type: 'fatal', message: `interpreter fatal error: ${String(error?.message ?? error).split('\n')[0]}` });
    // Requests are served synchronously (no event loop turns): give the message 20 ms to leave, then stop.
    pause(20);
    process.exit(70);
  };

  lockProcessBinding();
  lockProcessSignals();
  lockWorkers();
  lockNetwork();
  capWasmMemory(init.memoryLimitBytes);
  // Emscripten names the program after process.argv[1] (this file's host path): it becomes `os.environ['_']`
  // and `sys.executable`, which format-string walks can read. The runner also scrubs what is left.
  const hostPaths = [init.pyodideDir, fileURLToPath(new URL('.', import.meta.url)), process.execPath, ...process.argv];
  process.argv = ['node', 'python'];

  const started = performance.now();
  let py;
  let snapshot;
  let fromSnapshot = false;
  try {
    const { loadPyodide } = await import(pathToFileURL(`${init.pyodideDir}/pyodide.mjs`).href);
    const config = {
      indexURL: `${init.pyodideDir}/`,
      env: { PYTHONHASHSEED: '0', HOME: '/home/pyodide' },
      jsglobals: {},
      stdout: () => {},
      stderr: () => {},
      checkAPIVersion: true,
    };
    // The parent writes the snapshot's bytes to the request pipe before any request: read straight into one
    // aligned buffer (through IPC it would be buffered, deserialised and copied again, and those copies stay
    // resident in the supervisor until a garbage collection that an idle supervisor rarely runs).
    let snapshotBytes;
    if (init.snapshotBytes > 0) {
      snapshotBytes = new Uint8Array(init.snapshotBytes);
      if (!readFully(REQUEST_FD, snapshotBytes)) throw new Error('the memory snapshot did not arrive');
    }
    if (snapshotBytes !== undefined) {
      try {
        py = await loadPyodide({ ...config, _loadSnapshot: snapshotBytes });
        fromSnapshot = true;
      } catch (error) {
        post({ type: 'log', message: `snapshot load failed, starting cold: ${error?.message ?? error}` });
        py = undefined;
      }
    }
    if (py === undefined) {
      py = await loadPyodide({ ...config, _makeSnapshot: init.makeSnapshot === true });
      py.runPython(PRELOAD);
      if (init.makeSnapshot === true) {
        try {
          snapshot = py.makeMemorySnapshot();
        } catch (error) {
          post({ type: 'log', message: `memory snapshot unavailable: ${error?.message ?? error}` });
        }
      }
    }
    py.setInterruptBuffer(shared);
  } catch (error) {
    fatal(error);
    return;
  }

  let api;
  let info;
  try {
    const dict = py.globals.get('dict');
    const validatorNs = dict();
    py.runPython(init.validatorSource, { globals: validatorNs, filename: 'validator.py' });
    const runnerNs = dict();
    for (const name of ['check_tree', 'Rejected', 'SAFE_BUILTIN_NAMES', 'PYTHON_VERSION']) {
      runnerNs.set(name, validatorNs.get(name));
    }
    py.runPython(init.runnerSource, { globals: runnerNs, filename: 'runner.py' });
    api = {
      configure: runnerNs.get('configure'),
      validate: runnerNs.get('validate'),
      open: runnerNs.get('open_episode'),
      call: runnerNs.get('call_hook'),
      close: runnerNs.get('close_episode'),
      inspect: runnerNs.get('shared_state_fingerprint'),
    };
    info = JSON.parse(api.configure(JSON.stringify({ ...init.settings, host_paths: hostPaths.map((p) => String(p).replace(/\/+$/, '')) })));
    validatorNs.destroy();
    runnerNs.destroy();
    dict.destroy();
  } catch (error) {
    fatal(error);
    return;
  }

  const heapBytes = () => py._module.HEAP8.length;
  const ready = {
    type: 'ready',
    pythonVersion: info.pythonVersion,
    hardened: info.hardened,
    sharedObjects: info.sharedObjects,
    loadMs: performance.now() - started,
    fromSnapshot,
    heapBytes: heapBytes(),
    networkInterfaces: Object.keys(os.networkInterfaces()),
  };
  if (snapshot !== undefined) {
    post({ type: 'snapshot', bytes: snapshot }, [snapshot.buffer]);
  }
  post(ready);

  // From here on the thread only serves requests, one at a time, with blocking reads and writes.
  let seq = 0;
  const handle = (message) => {
    // A late interrupt aimed at the previous call must not hit this request.
    Atomics.store(shared, INTERRUPT, 0);
    try {
      switch (message.type) {
        case 'validate':
          return api.validate(message.source, message.benchmark ?? '');
        case 'open':
          return api.open(message.episodeId, JSON.stringify(message.sources), message.benchmark ?? '');
        case 'call': {
          seq = seq === 0x7fffffff ? 1 : seq + 1;
          const cpu = process.cpuUsage();
          startedAt[START_SLOT] = performance.timeOrigin + performance.now();
          startedAt[CPU_SLOT] = cpu.user + cpu.system;
          Atomics.store(shared, BUDGET_MS, message.timeoutMs);
          Atomics.store(shared, GRACE_MS, message.killGraceMs ?? 100);
          Atomics.store(shared, ACTIVE_CALL, seq);
          if (Atomics.load(shared, WATCH_IDLE) === 1) Atomics.notify(shared, ACTIVE_CALL);
          try {
            return api.call(message.episodeId, message.hookIndex, message.ctx);
          } finally {
            Atomics.store(shared, ACTIVE_CALL, 0);
          }
        }
        case 'close':
          return String(api.close(message.episodeId));
        case 'inspect':
          return api.inspect();
        default:
          return JSON.stringify({ error: `unknown message type ${String(message.type)}` });
      }
    } catch (error) {
      if (error?.pyodide_fatal_error || /fatal/i.test(String(error?.message))) fatal(error);
      const text = String(error?.message ?? error);
      // An interrupt that lands outside the runner's own handlers is still the wall clock.
      return /KeyboardInterrupt/.test(text)
        ? JSON.stringify({ fault: { kind: 'timeout', message: 'hook exceeded its wall-clock limit (interrupted)' } })
        : JSON.stringify({ error: text.slice(-500) });
    }
  };
  const header = Buffer.alloc(4);
  for (;;) {
    if (!readFully(REQUEST_FD, header)) process.exit(0); // the parent is gone
    const body = Buffer.allocUnsafe(header.readUInt32LE(0));
    if (!readFully(REQUEST_FD, body)) process.exit(0);
    let message;
    try {
      message = JSON.parse(body.toString('utf8'));
    } catch {
      fatal(new Error('malformed request frame'));
    }
    let result = handle(message);
    if (typeof result !== 'string' || result.length > init.maxReplyChars) {
      const text = 'the interpreter produced an oversized or malformed reply';
      result = JSON.stringify({ fault: { kind: 'bad_result', message: text } });
    }
    const payload = Buffer.from(result, 'utf8');
    const frame = Buffer.allocUnsafe(REPLY_HEADER_BYTES + payload.length);
    frame.writeUInt32LE(payload.length + REPLY_HEADER_BYTES - 4, 0);
    frame.writeUInt32LE(message.id >>> 0, 4);
    frame.writeUInt32LE(Math.min(heapBytes(), 0xffffffff), 8);
    payload.copy(frame, REPLY_HEADER_BYTES);
    writeFully(REPLY_FD, frame);
  }
}

// Blocking reads and writes on the request and reply pipes. The parent's end may leave them non-blocking; then
// the thread waits a millisecond and tries again.
// (A function, not a module constant: the thread never finishes the module's top-level await, so constants
// declared below it are never initialised there.)
function pause(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function readFully(fd, buffer) {
  let offset = 0;
  while (offset < buffer.length) {
    let n;
    try {
      n = fs.readSync(fd, buffer, offset, buffer.length - offset, null);
    } catch (error) {
      if (error?.code === 'EAGAIN' || error?.code === 'EINTR') {
        pause(1);
        continue;
      }
      return false;
    }
    if (n === 0) return false;
    offset += n;
  }
  return true;
}

function writeFully(fd, buffer) {
  let offset = 0;
  while (offset < buffer.length) {
    try {
      offset += fs.writeSync(fd, buffer, offset, buffer.length - offset);
    } catch (error) {
      if (error?.code === 'EAGAIN' || error?.code === 'EINTR') {
        pause(1);
        continue;
      }
      process.exit(0); // the parent is gone
    }
  }
}

function lockProcessBinding() {
  const constants = { fs: fs.constants, os: os.constants };
  const binding = (name) => {
    if (name === 'constants') return constants;
    throw Object.assign(new Error(`process.binding('${name}') is not available in the hook sandbox`), {
      code: 'ERR_ACCESS_DENIED',
    });
  };
  Object.defineProperty(process, 'binding', { value: binding, writable: false, configurable: false });
}

// The permission model does not cover signals: without a PID namespace a worker could signal host processes.
function lockProcessSignals() {
  const denied = function kill() {
    throw Object.assign(new Error('signals are disabled in the hook sandbox'), { code: 'ERR_ACCESS_DENIED' });
  };
  for (const name of ['kill', '_kill']) {
    if (name in process) Object.defineProperty(process, name, { value: denied, writable: false, configurable: false });
  }
}

// Node 20 lets a worker created with `execArgv: []` run WITHOUT the permission model (tested): the interpreter
// thread must never create workers, so the constructor is replaced before any hook code can run.
function lockWorkers() {
  const denied = function Worker() {
    throw Object.assign(new Error('worker threads are disabled in the hook sandbox'), { code: 'ERR_ACCESS_DENIED' });
  };
  Object.defineProperty(workerThreads, 'Worker', { value: denied, writable: false, configurable: false });
  syncBuiltinESMExports();
}

function lockNetwork() {
  const deny = (what) =>
    function denied() {
      throw Object.assign(new Error(`network access is disabled in the hook sandbox (${what})`), {
        code: 'ERR_ACCESS_DENIED',
      });
    };
  const seal = (target, name, what) => {
    if (target === undefined || target === null) return;
    try {
      Object.defineProperty(target, name, { value: deny(what), writable: false, configurable: false });
    } catch {
      // a property that cannot be redefined stays as it is; the network namespace still applies
    }
  };
  seal(net.Socket.prototype, 'connect', 'net.Socket.connect');
  seal(net.Server.prototype, 'listen', 'net.Server.listen');
  seal(net, 'connect', 'net.connect');
  seal(net, 'createConnection', 'net.createConnection');
  for (const name of ['bind', 'connect', 'send']) seal(dgram.Socket.prototype, name, `dgram.Socket.${name}`);
  const lookups = ['lookup', 'lookupService', 'resolve', 'resolve4', 'resolve6', 'resolveAny', 'reverse'];
  for (const name of lookups) seal(dns, name, `dns.${name}`);
  for (const name of lookups) seal(dns.promises, name, `dns.promises.${name}`);
  for (const [id, mod] of [['http', http], ['https', https]]) {
    seal(mod, 'request', `${id}.request`);
    seal(mod, 'get', `${id}.get`);
  }
  seal(tls, 'connect', 'tls.connect');
  seal(http2, 'connect', 'http2.connect');
  for (const name of ['fetch', 'WebSocket', 'EventSource']) seal(globalThis, name, name);
  syncBuiltinESMExports();
}

function capWasmMemory(limitBytes) {
  const grow = WebAssembly.Memory.prototype.grow;
  const capped = function (deltaPages) {
    if (this.buffer.byteLength + deltaPages * 65536 > limitBytes) {
      throw new RangeError('hook sandbox memory limit reached');
    }
    return grow.call(this, deltaPages);
  };
  Object.defineProperty(WebAssembly.Memory.prototype, 'grow', { value: capped, writable: false, configurable: false });
}
